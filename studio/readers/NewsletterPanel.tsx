import {ChartPanel} from './ChartPanel.tsx'
import {FiguresTable, type Column} from './FiguresTable.tsx'
import {StatusText} from './StatusText.tsx'
import {ThemedChart} from './ThemedChart.tsx'
import {useStatsTable} from './useStats.ts'

/** One week of the `newsletter` table: its Monday, the active subscribers at its end, its changes. */
interface Week {
  week: string
  active: number
  confirmations: number
  unsubscribes: number
}

const headingId = 'readers-newsletter'

const columns: Array<Column<Week>> = [
  ['week', 'Week of'],
  ['active', 'Active'],
  ['confirmations', 'Confirmations'],
  ['unsubscribes', 'Unsubscribes'],
]

/**
 * The newsletter (`/api/stats/newsletter.json`): active subscribers at each week's end as a line,
 * the week's confirmations and unsubscribes as bars; the same numbers as a table in a
 * disclosure, and the CSV.
 */
export function NewsletterPanel({days}: {days: number}) {
  const loaded = useStatsTable('newsletter', days)
  if (loaded.state !== 'ready') return <StatusText loaded={loaded} />
  const weeks: Week[] = loaded.value.rows.map(([week, active, confirmations, unsubscribes]) => ({
    week: String(week),
    active: Number(active),
    confirmations: Number(confirmations),
    unsubscribes: Number(unsubscribes),
  }))
  const active = weeks.at(-1)?.active ?? 0
  const total = (key: 'confirmations' | 'unsubscribes') =>
    weeks.reduce((sum, week) => sum + week[key], 0)
  return (
    <ChartPanel
      heading="Newsletter"
      headingId={headingId}
      csv={{table: 'newsletter', days, title: 'Newsletter'}}
      totals={`${active} active ${active === 1 ? 'subscriber' : 'subscribers'} · ${total('confirmations')} confirmed, ${total('unsubscribes')} unsubscribed since ${weeks[0]?.week ?? ''}`}
      totalsTestId="readers-newsletter-totals"
      chart={
        <ThemedChart
          rows={weeks}
          xKey="week"
          height={240}
          legend
          series={[
            {mark: 'bar', key: 'confirmations', name: 'Confirmations', tone: 'link'},
            {mark: 'bar', key: 'unsubscribes', name: 'Unsubscribes', tone: 'muted'},
            {mark: 'line', key: 'active', name: 'Active subscribers', tone: 'accent'},
          ]}
        />
      }
      table={<FiguresTable columns={columns} rows={weeks} label={{'aria-labelledby': headingId}} />}
    />
  )
}
