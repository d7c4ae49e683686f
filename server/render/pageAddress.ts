import {countFromSearch, tabCountHref, tabFromSearch} from '../../web/blogTabs.ts'
import {blogPageSize} from '../../shared/siteQueries.ts'
import {searchFromInput} from '../../web/searchTerms.ts'

/**
 * The address a page is rendered and cached under. Only what a route reads survives: the blog's
 * `?category=` when it names one of its tabs and its `?count=` as a multiple of six beyond the
 * first page (web/routes/blog.loader.ts reads nothing else, maps any other category to Latest
 * and any other count to the nearest one below). So `/?x=1`, `/?x=2`, … are all the page `/`,
 * `/blog?count=13&utm=x` is `/blog?count=12`, and a flood of made-up parameters adds no
 * render-cache entry. Counts past a tab's last page are variants (handler.ts). An address with
 * no query and no fragment is returned as it is, the same object.
 */
export function pageAddress(url: URL): URL {
  // Already its own address: `url` itself, not a copy (a cached page's answer made one per hit).
  if (url.search === '' && url.hash === '') return url
  // Not `new URL(pathname, origin)`: a path starting `//` would be read as another host.
  const address = new URL(url.href)
  address.search = ''
  address.hash = ''
  if (url.search === '') return address
  if (url.pathname.replace(/\/+$/, '') === '/blog') {
    const tab = tabFromSearch(url.searchParams)
    const href = tabCountHref(tab, countFromSearch(url.searchParams))
    address.search = new URL(href, url.origin).search
  }
  if (url.pathname.replace(/\/+$/, '') === '/search') {
    // The search page reads its query (as web/searchTerms.ts bounds it) and its count.
    const {q} = searchFromInput(url.searchParams.get('q'))
    const count = countFromSearch(url.searchParams)
    const kept = new URLSearchParams(q ? {q} : {})
    if (count !== blogPageSize) kept.set('count', String(count))
    address.search = kept.toString()
  }
  return address
}

const canonicalLink = /<link rel="canonical" href="([^"]*)"/

/**
 * A page's own address, as opposed to a variant a route also matches (`/Services`,
 * `/services//`, `/testimonial`): its path equals the path of its canonical link. Variants and
 * error pages are still cached, but in a small separate bucket, so requests for endless variants
 * cannot evict the real pages. A page without a canonical link counts as its own address.
 */
export function isOwnAddress(html: string, url: URL): boolean {
  const match = canonicalLink.exec(html)
  if (!match) return true
  try {
    return new URL(match[1].replaceAll('&amp;', '&')).pathname === url.pathname
  } catch {
    return false
  }
}
