import {Card, Container, Flex, Grid, Heading, Stack, TabPanel, Text} from '@sanity/ui'
import {useState} from 'react'
import {DailyChart} from './DailyChart.tsx'
import {LiveCount} from './LiveCount.tsx'
import {NewsletterPanel} from './NewsletterPanel.tsx'
import {PeriodSwitch, periodPanelId, periodTabId} from './PeriodSwitch.tsx'
import {RankedTable} from './RankedTable.tsx'
import {rankedTables, type Period} from './statsTables.ts'

/**
 * The owner's reader statistics (issue #38, docs/reader-statistics.md): the live figure, the
 * period's visitors and page views per day, the newsletter per week, and the ranked tables, each
 * downloadable as CSV.
 */
export function ReadersTool() {
  const [days, setDays] = useState<Period>(30)
  return (
    <Card height="fill" overflow="auto" padding={4}>
      <Container width={4}>
        <Stack gap={5}>
          <Flex align="center" justify="space-between" gap={3} wrap="wrap">
            <Stack gap={3}>
              <Heading as="h1" size={3}>
                Readers
              </Heading>
              <Text size={1} muted>
                Counted on the server, without a cookie or a script; no reader is identified.
              </Text>
            </Stack>
            <PeriodSwitch days={days} onChange={setDays} />
          </Flex>
          <LiveCount />
          <TabPanel id={periodPanelId} aria-labelledby={periodTabId(days)}>
            <Stack gap={4}>
              <DailyChart days={days} />
              <NewsletterPanel days={days} />
              <Grid gridTemplateColumns={[1, 1, 2]} gap={4}>
                {rankedTables.map(({name, title}) => (
                  <RankedTable key={name} name={name} title={title} days={days} />
                ))}
              </Grid>
            </Stack>
          </TabPanel>
        </Stack>
      </Container>
    </Card>
  )
}
