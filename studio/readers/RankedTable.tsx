import {Card, Flex, Heading, Stack, Text} from '@sanity/ui'
import {CsvButton} from './CsvButton.tsx'
import type {StatsTable} from './statsTables.ts'
import {StatusText} from './StatusText.tsx'
import {useStatsTable} from './useStats.ts'

/** Column names of the server's tables as the owner reads them. */
const headings: Record<string, string> = {
  path: 'Path',
  title: 'Page',
  referrer: 'Referrer',
  campaign: 'Campaign',
  device: 'Device',
  browser: 'Browser',
  visitors: 'Visitors',
  pageviews: 'Page views',
  date: 'Date',
  aggregator: 'Feed reader',
  subscribers: 'Subscribers',
}

const numeric = new Set(['visitors', 'pageviews', 'subscribers'])

/** A table as shown: a cell's text, and a smaller note under it (a page's path). */
interface Shown {
  columns: string[]
  rows: Array<Array<{text: string; note?: string}>>
}

/**
 * The pages table names a page by its title (a post's, or the route's), with its path below it;
 * the other tables are shown as the server sends them. Every cell is text: React escapes it, so
 * a forged referrer or campaign with markup shows as the characters it is.
 */
function shown(table: StatsTable): Shown {
  const cells = table.rows.map((row) => row.map((cell) => String(cell)))
  if (!table.columns.includes('title'))
    return {columns: table.columns, rows: cells.map((row) => row.map((text) => ({text})))}
  const path = table.columns.indexOf('path')
  const title = table.columns.indexOf('title')
  const rest = table.columns.filter((column) => column !== 'path')
  return {
    columns: rest,
    rows: cells.map((row) =>
      rest.map((column) =>
        column === 'title'
          ? {text: row[title] || row[path], note: row[path]}
          : {text: row[table.columns.indexOf(column)]},
      ),
    ),
  }
}

/** One ranked table of the period (pages, referrers, …), with its CSV download. */
export function RankedTable({name, title, days}: {name: string; title: string; days: number}) {
  const loaded = useStatsTable(name, days)
  const id = `readers-table-${name}`
  return (
    <Card border radius={2} padding={4}>
      <Stack gap={4}>
        <Flex align="center" justify="space-between" gap={3}>
          <Heading as="h2" size={1} id={id}>
            {title}
          </Heading>
          <CsvButton table={name} days={days} title={title} />
        </Flex>
        {loaded.state !== 'ready' ? (
          <StatusText loaded={loaded} />
        ) : loaded.value.rows.length === 0 ? (
          <Text size={1} muted>
            {`Nothing in the last ${days} days.`}
          </Text>
        ) : (
          <Cells labelledBy={id} table={shown(loaded.value)} />
        )}
      </Stack>
    </Card>
  )
}

function Cells({labelledBy, table}: {labelledBy: string; table: Shown}) {
  const align = (column: string) => (numeric.has(column) ? 'right' : 'left')
  return (
    <table aria-labelledby={labelledBy} style={{width: '100%', borderCollapse: 'collapse'}}>
      <thead>
        <tr>
          {table.columns.map((column) => (
            <th key={column} scope="col" style={{textAlign: align(column), paddingBottom: 8}}>
              <Text size={1} weight="semibold">
                {headings[column] ?? column}
              </Text>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, index) => (
          <tr key={index}>
            {row.map((cell, column) => (
              <td
                key={table.columns[column]}
                style={{
                  textAlign: align(table.columns[column]),
                  padding: '4px 0',
                  verticalAlign: 'top',
                }}
              >
                <Stack gap={2}>
                  <Text size={1} style={{wordBreak: 'break-word'}}>
                    {cell.text}
                  </Text>
                  {cell.note !== undefined && (
                    <Text size={0} muted style={{wordBreak: 'break-word'}}>
                      {cell.note}
                    </Text>
                  )}
                </Stack>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
