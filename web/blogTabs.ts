import {blogTabs, type BlogTab} from '../schemas/categories.ts'

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
