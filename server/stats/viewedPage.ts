import {campaign, canonicalPath} from './dimensions.ts'

/** What a page view is counted under of its address: the canonical path and the campaign. */
export interface ViewedPage {
  path: string
  campaign: string | undefined
}

/** The page of a URL (absolute, or a path with a query). */
export function pageOf(url: URL): ViewedPage {
  return {path: canonicalPath(url.pathname), campaign: campaign(url.searchParams)}
}

/** Addresses remembered: a site's pages and their campaigns; past it the memory starts over. */
const maxAddresses = 1_000
/** Longer addresses are worked out each time: they are rare, and would weigh on the memory. */
const maxRememberedLength = 512
const known = new Map<string, ViewedPage>()

/**
 * The page of a request's URL, worked out once per distinct address: readers ask for the same
 * pages over and over, and parsing the URL was a fair part of counting a view. Bounded.
 */
export function pageOfAddress(address: string): ViewedPage {
  let page = known.get(address)
  if (!page) {
    page = pageOf(new URL(address))
    if (address.length > maxRememberedLength) return page
    if (known.size >= maxAddresses) known.clear()
    known.set(address, page)
  }
  return page
}
