import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {
  countFromSearch,
  lastPageCount,
  latestTab,
  tabCategory,
  tabCountHref,
  tabFromSearch,
  tabHref,
  type BlogTab,
} from '../blogTabs.ts'
import {sanityClientContext} from '../clientContext.ts'
import {postPageQuery} from '../queries.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'
import {loadCategories, type BlogCategory} from './blogCategories.ts'
import {takePrefetched} from './blogPrefetch.ts'
import {redirectFor} from './redirectFor.ts'

export interface BlogData extends PostPageQueryResult {
  tab: BlogTab
  /** The shown tab's name: Latest or its category's title. */
  tabTitle: string
  categories: BlogCategory[]
}

/**
 * The blog list: the selected tab's first `?count=` posts (six unless 'Load More' asked for
 * more, requirements §4.1) and its total, never the whole blog, with the categories' tabs. A
 * slug no category has shows Latest; a count beyond the tab's last page shows that page; the
 * answer names its own address (`Content-Location`), so the render cache keeps such variants
 * apart (server/render/handler.ts).
 */
export async function blogLoader({request, context}: LoaderFunctionArgs<RouterContextProvider>) {
  const search = new URL(request.url).searchParams
  const asked = tabFromSearch(search)
  const count = countFromSearch(search)
  const client = () => context.get(sanityClientContext)()
  const fetchPage = (tab: BlogTab) =>
    // In the browser, a tab may have been fetched ahead of the tap (BlogTabs); never on the server.
    takePrefetched(tab, count) ??
    client().then((c) => c.fetch(postPageQuery, {category: tabCategory(tab), start: 0, end: count}))
  const [categories, askedPage] = await Promise.all([
    client().then(loadCategories),
    fetchPage(asked),
  ])
  const category = categories.find((c) => c.slug === asked)
  // A renamed category's old tab address answers 301 to its new one (content/autoRedirects.ts).
  if (!category && asked !== latestTab) {
    const moved = await client().then((c) => redirectFor(c, tabHref(asked)))
    if (moved) return moved
  }
  const tab = category ? asked : latestTab
  const page = tab === asked ? askedPage : await fetchPage(tab)
  // The spec logs the loaded post list; only development builds do (a production site should not).
  if (import.meta.env.DEV) console.log('[blog] posts', page.posts)
  const own = tabCountHref(tab, Math.min(count, lastPageCount(page.total)))
  const tabTitle = category?.title ?? latestTab
  return data<BlogData>({tab, tabTitle, categories, ...page}, {headers: {'Content-Location': own}})
}
