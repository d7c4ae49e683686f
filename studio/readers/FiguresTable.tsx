import {Text} from '@sanity/ui'

/** A column: the row's key and its heading. The first column names the row (a date, a week). */
export type Column<Row> = readonly [keyof Row & string, string]

interface FiguresTableProps<Row> {
  columns: ReadonlyArray<Column<Row>>
  rows: Row[]
  /** The table's accessible name: its own label, or the id of the heading that names it. */
  label: {'aria-label': string} | {'aria-labelledby': string}
}

/**
 * A chart's numbers as a table, for anyone who does not read charts: one row a day or a week,
 * its first cell the row's header (left), the figures right-aligned.
 */
export function FiguresTable<Row extends {[K in keyof Row]: string | number}>({
  columns,
  rows,
  label,
}: FiguresTableProps<Row>) {
  const [[first], ...figures] = columns
  return (
    <table {...label} style={{width: '100%', borderCollapse: 'collapse', marginTop: 8}}>
      <thead>
        <tr>
          {columns.map(([key, heading]) => (
            <th key={key} scope="col" style={{textAlign: key === first ? 'left' : 'right'}}>
              <Text size={1} weight="semibold">
                {heading}
              </Text>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row[first]}>
            <th scope="row" style={{textAlign: 'left', fontWeight: 'normal', padding: '4px 0'}}>
              <Text size={1}>{row[first]}</Text>
            </th>
            {figures.map(([key]) => (
              <td key={key} style={{textAlign: 'right'}}>
                <Text size={1}>{row[key]}</Text>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
