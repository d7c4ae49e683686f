import {blogTabs, type BlogTab} from '../schemas/categories.ts'
import {blogPageSize} from './queries.ts'

export {blogTabs, type BlogTab}

function isBlogTab(value: string): value is BlogTab {
  return (blogTabs as readonly string[]).includes(value)
}

/** The tab named by `?category=`; Latest when absent or not one of the spec's tabs. */
export function tabFromSearch(search: URLSearchParams): BlogTab {
  const value = search.get('category')
  return value && isBlogTab(value) ? value : 'Latest'
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
