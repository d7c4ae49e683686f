import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {
  countFromSearch,
  lastPageCount,
  tabCategory,
  tabCountHref,
  tabFromSearch,
  type BlogTab,
} from '../blogTabs.ts'
import {sanityClientContext} from '../clientContext.ts'
import {postPageQuery} from '../queries.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'
import {takePrefetched} from './blogPrefetch.ts'

export interface BlogData extends PostPageQueryResult {
  tab: BlogTab
}

/**
 * The blog list: the selected tab's first `?count=` posts (six unless 'Load More' asked for
 * more, requirements §4.1) and its total, never the whole blog. A count beyond the tab's last
 * page shows that page; the answer names its own address (`Content-Location`), so the render
 * cache keeps such variants apart (server/render/handler.ts).
 */
export async function blogLoader({request, context}: LoaderFunctionArgs<RouterContextProvider>) {
  const search = new URL(request.url).searchParams
  const tab = tabFromSearch(search)
  const count = countFromSearch(search)
  // In the browser, a tab may have been fetched ahead of the tap (BlogTabs); never on the server.
  const page = await (takePrefetched(tab, count) ??
    context
      .get(sanityClientContext)()
      .then((client) =>
        client.fetch(postPageQuery, {category: tabCategory(tab), start: 0, end: count}),
      ))
  // The spec logs the loaded post list; only development builds do (a production site should not).
  if (import.meta.env.DEV) console.log('[blog] posts', page.posts)
  const own = tabCountHref(tab, Math.min(count, lastPageCount(page.total)))
  return data<BlogData>({tab, ...page}, {headers: {'Content-Location': own}})
}
