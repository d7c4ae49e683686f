import type {LoaderFunctionArgs, RouterContextProvider} from 'react-router-dom'
import {tabCategory, tabFromSearch, type BlogTab} from '../blogTabs.ts'
import {sanityClientContext} from '../clientContext.ts'
import {blogPageSize, postPageQuery} from '../queries.ts'
import type {PostPageQueryResult} from '../sanity.types.ts'

export interface BlogData extends PostPageQueryResult {
  tab: BlogTab
}

/** The blog list: the selected tab's first page and its total (never the whole blog). */
export async function blogLoader({
  request,
  context,
}: LoaderFunctionArgs<RouterContextProvider>): Promise<BlogData> {
  const tab = tabFromSearch(new URL(request.url).searchParams)
  const client = await context.get(sanityClientContext)()
  const page = await client.fetch(postPageQuery, {
    category: tabCategory(tab),
    start: 0,
    end: blogPageSize,
  })
  // The spec logs the loaded post list; only development builds do (a production site should not).
  if (import.meta.env.DEV) console.log('[blog] posts', page.posts)
  return {tab, ...page}
}
