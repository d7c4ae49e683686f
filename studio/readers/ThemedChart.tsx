import {Box, useTheme_v2} from '@sanity/ui'
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'

/** One series of a chart: a line or bars of one column, in one of the theme's tones. */
export interface Series<Row> {
  mark: 'line' | 'bar'
  key: keyof Row & string
  name: string
  tone: 'accent' | 'link' | 'muted'
  /** A line's dots; recharts draws them unless told not to (too dense over 90 days). */
  dots?: boolean
}

interface ThemedChartProps<Row> {
  rows: Row[]
  /** The column along the x axis (a date, a week's Monday). */
  xKey: keyof Row & string
  series: Array<Series<Row>>
  height: number
  legend?: boolean
  /** For a chart whose numbers the text beside it already says (a post's Readers view). */
  hidden?: boolean
}

/** A column's name as recharts takes it (its typed keys do not follow a generic row). */
const column = (key: string): string => key

/**
 * Every chart of the Readers tool and a post's Readers view, drawn alike: recharts in the Studio
 * theme's colours (so it reads in the light and the dark theme), whole numbers on the y axis, no
 * animation (a period switch redraws at once). The chart is a LineChart, a BarChart or, for
 * both marks, a ComposedChart, as recharts lays out each (a bar chart's band axis).
 */
export function ThemedChart<Row>({
  rows,
  xKey,
  series,
  height,
  legend,
  hidden,
}: ThemedChartProps<Row>) {
  const {color} = useTheme_v2()
  const marks = new Set(series.map((one) => one.mark))
  const Chart = marks.size > 1 ? ComposedChart : marks.has('bar') ? BarChart : LineChart
  return (
    <Box style={{height}} aria-hidden={hidden ? 'true' : undefined}>
      <ResponsiveContainer width="100%" height="100%">
        <Chart data={rows} margin={{top: 8, right: 8, bottom: 8, left: 0}}>
          <CartesianGrid stroke={color.border} strokeDasharray="3 3" />
          <XAxis dataKey={column(xKey)} stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
          <YAxis allowDecimals={false} stroke={color.muted.fg} tick={{fill: color.muted.fg}} />
          <Tooltip
            contentStyle={{background: color.bg, borderColor: color.border, color: color.fg}}
          />
          {legend ? <Legend /> : null}
          {series.map(({mark, key, name, tone, dots}) =>
            mark === 'bar' ? (
              <Bar
                key={key}
                dataKey={column(key)}
                name={name}
                fill={color[tone].fg}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={key}
                type="monotone"
                dataKey={column(key)}
                name={name}
                stroke={color[tone].fg}
                strokeWidth={2}
                dot={dots}
                isAnimationActive={false}
              />
            ),
          )}
        </Chart>
      </ResponsiveContainer>
    </Box>
  )
}
