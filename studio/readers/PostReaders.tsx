import {Card, Stack, Text} from '@sanity/ui'
import type {UserViewComponent} from 'sanity/structure'
import {postPath} from '../../shared/siteUrls.ts'
import {dailyRows} from './dailyRows.ts'
import {StatusText} from './StatusText.tsx'
import {ThemedChart} from './ThemedChart.tsx'
import {useStatsTable} from './useStats.ts'

/** The period a post's own figures cover (issue #38: "its own views for the last 30 days"). */
const days = 30

/** The published post's slug: views are counted at the published page's path. */
function publishedSlug(published: Record<string, unknown> | null): string | undefined {
  const slug = published?.slug
  if (typeof slug !== 'object' || slug === null || !('current' in slug)) return undefined
  return typeof slug.current === 'string' && slug.current !== '' ? slug.current : undefined
}

/**
 * A post's "Readers" view in its document (studio/readers/postDocument.ts): its own page views
 * and visitors of the last 30 days, per day, from `/api/stats/daily.json?page=<its path>`.
 */
export const PostReaders: UserViewComponent = ({document}) => {
  const slug = publishedSlug(document.published)
  return (
    <Card padding={4} height="fill" overflow="auto">
      {slug === undefined ? (
        <Text muted>Not published yet: readers are counted once the post is on the site.</Text>
      ) : (
        <PageDays path={postPath(slug)} />
      )}
    </Card>
  )
}

function PageDays({path}: {path: string}) {
  const loaded = useStatsTable('daily', days, path)
  if (loaded.state !== 'ready') return <StatusText loaded={loaded} />
  const rows = dailyRows(loaded.value)
  const views = rows.reduce((sum, row) => sum + row.pageviews, 0)
  const visitors = rows.reduce((sum, row) => sum + row.visitors, 0)
  return (
    <Stack gap={4}>
      <Text size={3} weight="semibold" data-testid="post-readers-totals">
        {`${views} ${views === 1 ? 'view' : 'views'} · ${visitors} ${visitors === 1 ? 'visitor' : 'visitors'} in the last ${days} days`}
      </Text>
      <Text size={1} muted>
        {`Page views of ${path} counted on the server, per day; the Readers tool has the whole site.`}
      </Text>
      <ThemedChart
        rows={rows}
        xKey="date"
        height={220}
        hidden
        series={[{mark: 'bar', key: 'pageviews', name: 'Page views', tone: 'accent'}]}
      />
    </Stack>
  )
}
