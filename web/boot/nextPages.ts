import type {BootOptions} from './boot.ts'
import type {BootBusy} from './busy.ts'

/** The blog's next page, parsed, and the address it came from. */
export interface NextPage {
  doc: Document
  address: string
}

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): the
 * next page behind a 'Load More' form, fetched once per address (a failed fetch is forgotten).
 */
export function pageFetcher(): (form: HTMLFormElement) => Promise<NextPage> {
  const pages = new Map<string, Promise<NextPage>>()
  return (form) => {
    const url = new URL(form.action)
    url.hash = ''
    url.search = new URLSearchParams(
      [...new FormData(form)].map(([name, value]) => [name, String(value)]),
    ).toString()
    let page = pages.get(url.href)
    if (!page) {
      page = fetch(url, {headers: {Accept: 'text/html'}}).then(async (response) => {
        if (!response.ok) throw new Error(`${url.pathname}${url.search}: HTTP ${response.status}`)
        const doc = new DOMParser().parseFromString(await response.text(), 'text/html')
        return {doc, address: url.href}
      })
      page.catch(() => pages.delete(url.href))
      pages.set(url.href, page)
    }
    return page
  }
}

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): the
 * next page fetched (`fetchPage`, pageFetcher) ahead of the tap: when the 'Load More' button
 * nears the screen (watched after the load, so a first paint never waits for it), or on
 * pointerdown. Returns the fetch for the tap itself, and a watch for the form's next page.
 */
export function nextPages(
  options: BootOptions,
  busy: BootBusy,
  fetchPage: (form: HTMLFormElement) => Promise<NextPage>,
): {nextPage(form: HTMLFormElement): Promise<NextPage>; watch(form: HTMLFormElement): void} {
  const nextPage = fetchPage
  const moreSelector = `form[${options.loadMoreAttribute}]`
  const nearing =
    'IntersectionObserver' in window
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const form = entry.target
              if (!entry.isIntersecting || busy.appRuns() || !(form instanceof HTMLFormElement))
                continue
              nearing?.unobserve(form)
              nextPage(form).catch(() => {})
            }
          },
          // A screen ahead: the page is there before the visitor reaches the button.
          {rootMargin: '0px 0px 100% 0px'},
        )
      : undefined
  const watchMore = () => {
    const form = document.querySelector<HTMLFormElement>(moreSelector)
    if (form && nearing) nearing.observe(form)
  }
  if (document.readyState === 'complete') watchMore()
  else addEventListener('load', watchMore, {once: true})
  document.addEventListener(
    'pointerdown',
    (event) => {
      const form =
        event.target instanceof Element ? event.target.closest<HTMLFormElement>(moreSelector) : null
      if (form && !busy.appRuns()) nextPage(form).catch(() => {})
    },
    {capture: true, passive: true},
  )
  return {nextPage, watch: (form) => nearing?.observe(form)}
}
