import {blogPageSize} from './queries.ts'

/**
 * A tab of the blog: 'Latest' (every post) or a category's slug (its `category` document, edited
 * in the Studio). A category whose slug is 'Latest' has no tab of its own.
 */
export type BlogTab = string

export const latestTab: BlogTab = 'Latest'

/**
 * What a category's slug may look like in an address: the Studio's slugs, bounded, so made-up
 * values never reach a query or the render cache's key (server/render/pageAddress.ts).
 */
const slugPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,59}$/

/**
 * The tab named by `?category=`: a category's slug, Latest when absent or unreadable. The loader
 * shows Latest for a slug no category has (web/routes/blog.loader.ts).
 */
export function tabFromSearch(search: URLSearchParams): BlogTab {
  const value = search.get('category')
  return value && slugPattern.test(value) ? value : latestTab
}

/** Where a tab lives: /blog for Latest, /blog?category=… for the others. */
export function tabHref(tab: BlogTab): string {
  return tab === 'Latest' ? '/blog' : `/blog?category=${encodeURIComponent(tab)}`
}

/** The GROQ `$category` parameter of a tab: null matches every post. */
export function tabCategory(tab: BlogTab): string | null {
  return tab === 'Latest' ? null : tab
}

/**
 * The most cards one address may ask for (`?count=`): bounds the work of one render and the
 * addresses a tab has, whatever number a request makes up. Far above any blog this site holds.
 */
export const maxBlogCount = 600

/**
 * How many cards `?count=` asks for: a multiple of the page size (rounded down), at least one
 * page and at most `maxBlogCount`; a missing or unreadable value is one page. The loader then
 * clamps it to the tab's last page (`lastPageCount`).
 */
export function countFromSearch(search: URLSearchParams): number {
  const value = Number.parseInt(search.get('count') ?? '', 10)
  if (!Number.isFinite(value)) return blogPageSize
  const pages = Math.floor(value / blogPageSize)
  return Math.min(maxBlogCount, Math.max(blogPageSize, pages * blogPageSize))
}

/** The count that shows all of a tab's `total` posts: its last page, never less than one page. */
export function lastPageCount(total: number): number {
  return Math.max(blogPageSize, Math.ceil(total / blogPageSize) * blogPageSize)
}

/**
 * The address of a tab showing `count` cards: the tab's own address for one page (so a tab link
 * always starts again at six, requirements §4.1.4), `&count=` or `?count=` beyond.
 */
export function tabCountHref(tab: BlogTab, count: number): string {
  const href = tabHref(tab)
  if (count <= blogPageSize) return href
  return `${href}${href.includes('?') ? '&' : '?'}count=${count}`
}
