import {Box, Card, Flex, Heading, Stack, Text, useTheme_v2} from '@sanity/ui'
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import {CsvButton} from './CsvButton.tsx'
import {StatusText} from './StatusText.tsx'
import {useStatsTable} from './useStats.ts'

/** One week of the `newsletter` table: its Monday, the active subscribers at its end, its changes. */
interface Week {
  week: string
  active: number
  confirmations: number
  unsubscribes: number
}

const headingId = 'readers-newsletter'

/**
 * The newsletter (`/api/stats/newsletter.json`): active subscribers at each week's end as a line,
 * the week's confirmations and unsubscribes as bars, in the Studio theme's colours (light and
 * dark); the same numbers as a table in a disclosure, and the CSV.
 */
export function NewsletterPanel({days}: {days: number}) {
  const loaded = useStatsTable('newsletter', days)
  const {color} = useTheme_v2()
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
    <Card border radius={2} padding={4}>
      <Stack gap={4}>
        <Flex align="center" justify="space-between" gap={3} wrap="wrap">
          <Heading as="h2" size={1} id={headingId}>
            Newsletter
          </Heading>
          <CsvButton table="newsletter" days={days} title="Newsletter" />
        </Flex>
        <Text data-testid="readers-newsletter-totals">
          {`${active} active ${active === 1 ? 'subscriber' : 'subscribers'} · ${total('confirmations')} confirmed, ${total('unsubscribes')} unsubscribed since ${weeks[0]?.week ?? ''}`}
        </Text>
        <Box style={{height: 240}}>
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={weeks} margin={{top: 8, right: 8, bottom: 8, left: 0}}>
              <CartesianGrid stroke={color.border} strokeDasharray="3 3" />
              <XAxis dataKey="week" stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
              <YAxis allowDecimals={false} stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
              <Tooltip
                contentStyle={{background: color.bg, borderColor: color.border, color: color.fg}}
              />
              <Legend />
              <Bar
                dataKey="confirmations"
                name="Confirmations"
                fill={color.link.fg}
                isAnimationActive={false}
              />
              <Bar
                dataKey="unsubscribes"
                name="Unsubscribes"
                fill={color.muted.fg}
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="active"
                name="Active subscribers"
                stroke={color.accent.fg}
                strokeWidth={2}
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </Box>
        <details>
          <summary>
            <Text as="span" size={1}>
              The same, as a table
            </Text>
          </summary>
          <WeekTable weeks={weeks} />
        </details>
      </Stack>
    </Card>
  )
}

const columns = [
  ['week', 'Week of'],
  ['active', 'Active'],
  ['confirmations', 'Confirmations'],
  ['unsubscribes', 'Unsubscribes'],
] as const

function WeekTable({weeks}: {weeks: Week[]}) {
  return (
    <table
      aria-labelledby={headingId}
      style={{width: '100%', borderCollapse: 'collapse', marginTop: 8}}
    >
      <thead>
        <tr>
          {columns.map(([key, heading]) => (
            <th key={key} scope="col" style={{textAlign: key === 'week' ? 'left' : 'right'}}>
              <Text size={1} weight="semibold">
                {heading}
              </Text>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week.week}>
            <th scope="row" style={{textAlign: 'left', fontWeight: 'normal', padding: '4px 0'}}>
              <Text size={1}>{week.week}</Text>
            </th>
            {columns.slice(1).map(([key]) => (
              <td key={key} style={{textAlign: 'right'}}>
                <Text size={1}>{week[key]}</Text>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
