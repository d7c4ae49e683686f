import {Box, Card, Flex, Heading, Stack, Text, useTheme_v2} from '@sanity/ui'
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import {CsvButton} from './CsvButton.tsx'
import {StatusText} from './StatusText.tsx'
import {useStatsTable} from './useStats.ts'

/** One day of the `daily` table: date, visitors, pageviews (every day, none skipped). */
interface Day {
  date: string
  visitors: number
  pageviews: number
}

const sum = (days: Day[], key: 'visitors' | 'pageviews') =>
  days.reduce((total, day) => total + day[key], 0)

/**
 * Visitors and page views per day, as a line chart (recharts, with its keyboard-reachable
 * accessibility layer) in the Studio theme's colours, so it reads in the light and the dark
 * theme; the period's totals above it as text, and the same numbers as a table in a disclosure
 * for anyone who does not read charts.
 */
export function DailyChart({days}: {days: number}) {
  const loaded = useStatsTable('daily', days)
  const {color} = useTheme_v2()
  if (loaded.state !== 'ready') return <StatusText loaded={loaded} />
  const rows: Day[] = loaded.value.rows.map(([date, visitors, pageviews]) => ({
    date: String(date),
    visitors: Number(visitors),
    pageviews: Number(pageviews),
  }))
  return (
    <Card border radius={2} padding={4}>
      <Stack gap={4}>
        <Flex align="center" justify="space-between" gap={3} wrap="wrap">
          <Heading as="h2" size={1}>
            Visitors and page views per day
          </Heading>
          <CsvButton table="daily" days={days} />
        </Flex>
        <Text data-testid="readers-totals">
          {`${sum(rows, 'visitors')} visitors · ${sum(rows, 'pageviews')} page views in the last ${days} days`}
        </Text>
        <Box style={{height: 280}}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows} margin={{top: 8, right: 8, bottom: 8, left: 0}}>
              <CartesianGrid stroke={color.border} strokeDasharray="3 3" />
              <XAxis dataKey="date" stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
              <YAxis allowDecimals={false} stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
              <Tooltip
                contentStyle={{background: color.bg, borderColor: color.border, color: color.fg}}
              />
              <Legend />
              <Line
                type="monotone"
                dataKey="pageviews"
                name="Page views"
                stroke={color.accent.fg}
                strokeWidth={2}
                dot={days <= 30}
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="visitors"
                name="Visitors"
                stroke={color.link.fg}
                strokeWidth={2}
                dot={days <= 30}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </Box>
        <details>
          <summary>
            <Text as="span" size={1}>
              The same, as a table
            </Text>
          </summary>
          <DayTable rows={rows} />
        </details>
      </Stack>
    </Card>
  )
}

function DayTable({rows}: {rows: Day[]}) {
  return (
    <table aria-label="Per day" style={{width: '100%', borderCollapse: 'collapse', marginTop: 8}}>
      <thead>
        <tr>
          {['Date', 'Visitors', 'Page views'].map((heading) => (
            <th
              key={heading}
              scope="col"
              style={{textAlign: heading === 'Date' ? 'left' : 'right'}}
            >
              <Text size={1} weight="semibold">
                {heading}
              </Text>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((day) => (
          <tr key={day.date}>
            <th scope="row" style={{textAlign: 'left', fontWeight: 'normal', padding: '4px 0'}}>
              <Text size={1}>{day.date}</Text>
            </th>
            <td style={{textAlign: 'right'}}>
              <Text size={1}>{day.visitors}</Text>
            </td>
            <td style={{textAlign: 'right'}}>
              <Text size={1}>{day.pageviews}</Text>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
