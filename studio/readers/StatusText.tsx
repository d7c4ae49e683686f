import {Card, Text} from '@sanity/ui'
import type {Loaded} from './useStats.ts'

/** What a panel shows until its table is there: that it is loading, or why it failed. */
export function StatusText({loaded}: {loaded: Loaded<unknown>}) {
  if (loaded.state === 'error')
    return (
      <Card tone="critical" padding={3} radius={2} role="alert">
        <Text size={1}>{loaded.message}</Text>
      </Card>
    )
  return (
    <Text size={1} muted>
      Loading…
    </Text>
  )
}
