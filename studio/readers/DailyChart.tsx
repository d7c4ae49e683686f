import {ChartPanel} from './ChartPanel.tsx'
import {FiguresTable, type Column} from './FiguresTable.tsx'
import {StatusText} from './StatusText.tsx'
import {ThemedChart} from './ThemedChart.tsx'
import {useStatsTable} from './useStats.ts'
import {dailyRows, type Day} from './dailyRows.ts'

const columns: Array<Column<Day>> = [
  ['date', 'Date'],
  ['visitors', 'Visitors'],
  ['pageviews', 'Page views'],
]

const sum = (days: Day[], key: 'visitors' | 'pageviews') =>
  days.reduce((total, day) => total + day[key], 0)

/**
 * Visitors and page views per day, as a line chart (recharts, with its keyboard-reachable
 * accessibility layer); the period's totals above it as text, and the same numbers as a table in
 * a disclosure for anyone who does not read charts.
 */
export function DailyChart({days}: {days: number}) {
  const loaded = useStatsTable('daily', days)
  if (loaded.state !== 'ready') return <StatusText loaded={loaded} />
  const rows = dailyRows(loaded.value)
  return (
    <ChartPanel
      heading="Visitors and page views per day"
      csv={{table: 'daily', days}}
      totals={`${sum(rows, 'visitors')} visitors · ${sum(rows, 'pageviews')} page views in the last ${days} days`}
      totalsTestId="readers-totals"
      chart={
        <ThemedChart
          rows={rows}
          xKey="date"
          height={280}
          legend
          series={[
            {mark: 'line', key: 'pageviews', name: 'Page views', tone: 'accent', dots: days <= 30},
            {mark: 'line', key: 'visitors', name: 'Visitors', tone: 'link', dots: days <= 30},
          ]}
        />
      }
      table={<FiguresTable columns={columns} rows={rows} label={{'aria-label': 'Per day'}} />}
    />
  )
}
