import {Card, Stack, Text} from '@sanity/ui'
import {StatusText} from './StatusText.tsx'
import {useStatsJson} from './useStats.ts'

/** How often the live figure is asked again while the tool is open. */
const refreshMs = 30_000

/** `{visitors: n}`, or an error if the answer is not that. */
function readLive(json: unknown): {visitors: number} {
  if (
    typeof json === 'object' &&
    json !== null &&
    'visitors' in json &&
    typeof json.visitors === 'number'
  )
    return {visitors: json.visitors}
  throw new Error('Reader statistics: not a live count')
}

/** Visitors of the last 5 minutes (`/api/stats/live.json`), refreshed while the tool is open. */
export function LiveCount() {
  const loaded = useStatsJson('live.json', readLive, refreshMs)
  return (
    <Card border radius={2} padding={4} tone="primary">
      {loaded.state === 'ready' ? (
        <Stack gap={3}>
          <Text size={4} weight="bold" data-testid="readers-live">
            {String(loaded.value.visitors)}
          </Text>
          <Text size={1} muted>
            {loaded.value.visitors === 1 ? 'visitor' : 'visitors'} in the last 5 minutes
          </Text>
        </Stack>
      ) : (
        <StatusText loaded={loaded} />
      )}
    </Card>
  )
}
