import {Card, Flex, Heading, Stack, Text} from '@sanity/ui'
import type {ReactNode} from 'react'
import {CsvButton} from './CsvButton.tsx'

interface ChartPanelProps {
  heading: string
  headingId?: string
  /** The server's table the CSV button downloads, and the name its label gives it. */
  csv: {table: string; days: number; title?: string}
  /** The period's totals, as a sentence above the chart. */
  totals: string
  totalsTestId: string
  chart: ReactNode
  table: ReactNode
}

/**
 * A panel of the Readers tool that draws a table of the period: its heading and CSV download, the
 * totals as text (what the chart shows, for a screen reader first), the chart, and the same
 * numbers as a table in a disclosure.
 */
export function ChartPanel({
  heading,
  headingId,
  csv,
  totals,
  totalsTestId,
  chart,
  table,
}: ChartPanelProps) {
  return (
    <Card border radius={2} padding={4}>
      <Stack gap={4}>
        <Flex align="center" justify="space-between" gap={3} wrap="wrap">
          <Heading as="h2" size={1} id={headingId}>
            {heading}
          </Heading>
          <CsvButton {...csv} />
        </Flex>
        <Text data-testid={totalsTestId}>{totals}</Text>
        {chart}
        <details>
          <summary>
            <Text as="span" size={1}>
              The same, as a table
            </Text>
          </summary>
          {table}
        </details>
      </Stack>
    </Card>
  )
}
