/** Dispatched on `document` once React has hydrated the page (entry.client.tsx). */
export const hydratedEvent = 'site:hydrated'
/** Dispatched on `document` when the boot function has finished changing the page. */
export const bootIdleEvent = 'site:boot-idle'
/** Marks the blog's 'Load More' form and the contact form, which the boot function serves. */
export const loadMoreAttribute = 'data-load-more'
export const contactAttribute = 'data-contact'
/** The class of a toast message (Toast.tsx styles it; its CSS animation hides it after 4000 ms). */
export const toastClass = 'site-toast'
/** On <html> in preview mode (Document.tsx): the app loads at once. */
export const previewAttribute = 'data-preview'
/** Set on <html> by the boot function when a preview page is framed (the Studio's Presentation). */
export const framedAttribute = 'data-framed'

export interface BootOptions {
  /** The app's entry (React, router, styles) and the chunks it imports, fetched in parallel. */
  app: string
  preload: string[]
  hydratedEvent: string
  bootIdleEvent: string
  loadMoreAttribute: string
  contactAttribute: string
  toastClass: string
  toastMs: number
  thankYou: string
  /** The id of the page's payload <script> (payload.ts), which hydration reads. */
  payloadId: string
  /** The contact relay's one-time marker in the address (contactToast.ts). */
  sentParam: string
  previewAttribute: string
  framedAttribute: string
  /** Where a prerendered page reports that it was shown (server/stats/beacon.ts). */
  viewBeacon: string
}

/**
 * The only JavaScript a page runs up front. The server inlines it at the end of <body> as
 * `(${boot})(options)` (bootScript.ts), so it runs before the first paint with no
 * request, and must refer to nothing outside itself.
 *
 * The server's HTML is the complete page and its first taps need no app (docs/site.md): the menu
 * is a native popover, the footer modals native <dialog>s opened by invoker commands, 'Load More'
 * a GET form and the contact form a POST form. This function makes them as quick as the app:
 * - keeps Tab inside an open modal <dialog> (the browser would let it reach its own toolbar);
 * - 'Load More': fetches the next page's HTML ahead (when the button nears the screen, or on
 *   pointerdown) and, on the tap, adds its new cards, takes its payload (so hydration later
 *   matches) and replaces the address (`?count=`), not a history entry per tap;
 * - the contact form: posts by fetch, clears the fields and shows the toast for 4000 ms.
 * Once the app hydrates (`<html data-hydrated>`), React serves the forms and this steps aside;
 * while it changes the page it marks `<html data-boot-busy>` and the app waits for it.
 *
 * The app is imported at the visitor's first click or key press, when the browser is next idle:
 * a visit that only reads (and scrolls) never downloads it, and the answer to a tap is painted
 * before the app's download and parse compete with it. It brings client-side navigation.
 * In preview mode (`<html data-preview>`) it is imported at once: the Studio's Presentation tool
 * gives up on the overlays' connection 3 s after framing the page. A framed preview page is
 * marked `<html data-framed>` before its first paint, which hides the preview bar (the Studio
 * has its own).
 */
export function boot(options: BootOptions): void {
  const root = document.documentElement
  // A prerendered page (the speculation rules) made its request before the reader chose it, and
  // was not counted then: it is counted when shown (docs/reader-statistics.md).
  if ((document as Document & {prerendering?: boolean}).prerendering)
    document.addEventListener(
      'prerenderingchange',
      () =>
        navigator.sendBeacon(
          options.viewBeacon,
          JSON.stringify({path: location.pathname + location.search, referrer: document.referrer}),
        ),
      {once: true},
    )

  // The relay's one-time marker has been used: keep it out of the address a reload would ask for.
  const address = new URL(location.href)
  if (address.searchParams.has(options.sentParam)) {
    address.searchParams.delete(options.sentParam)
    history.replaceState(history.state, '', address)
  }

  const appRuns = () => root.dataset.hydrated !== undefined
  let busy = 0
  const begin = () => {
    busy++
    root.dataset.bootBusy = ''
  }
  const end = () => {
    if (--busy > 0) return
    delete root.dataset.bootBusy
    document.dispatchEvent(new Event(options.bootIdleEvent))
  }

  // Tab and Shift+Tab cycle inside an open modal dialog, before and after hydration alike.
  const focusable =
    'a[href], button:not([disabled]), input:not([disabled]), textarea, select, [tabindex]:not([tabindex="-1"])'
  document.addEventListener('keydown', (event) => {
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]:modal')
    if (event.key !== 'Tab' || !dialog) return
    const items = [...dialog.querySelectorAll<HTMLElement>(focusable)]
    const first = items[0]
    const last = items[items.length - 1]
    if (!first || !last) return
    const active = document.activeElement
    if (event.shiftKey && (active === first || !dialog.contains(active))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
      event.preventDefault()
      first.focus()
    }
  })

  // 'Load More': the next page's HTML, fetched once per address.
  const pages = new Map<string, Promise<{doc: Document; address: string}>>()
  const nextPage = (form: HTMLFormElement): Promise<{doc: Document; address: string}> => {
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
  const moreSelector = `form[${options.loadMoreAttribute}]`
  const nearing =
    'IntersectionObserver' in window
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const form = entry.target
              if (!entry.isIntersecting || appRuns() || !(form instanceof HTMLFormElement)) continue
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
  // After the load, so a reader's first paint never waits for it.
  if (document.readyState === 'complete') watchMore()
  else addEventListener('load', watchMore, {once: true})
  document.addEventListener(
    'pointerdown',
    (event) => {
      const form =
        event.target instanceof Element ? event.target.closest<HTMLFormElement>(moreSelector) : null
      if (form && !appRuns()) nextPage(form).catch(() => {})
    },
    {capture: true, passive: true},
  )

  const loadMore = async (form: HTMLFormElement) => {
    begin()
    try {
      const {doc, address} = await nextPage(form)
      const shown = document.querySelectorAll('main article')
      const grid = shown[0]?.parentElement
      const cards = [...doc.querySelectorAll('main article')].slice(shown.length)
      const payload = document.getElementById(options.payloadId)
      const nextPayload = doc.getElementById(options.payloadId)
      if (!grid || !payload || !nextPayload) throw new Error('not a blog page')
      grid.append(...cards.map((card) => document.adoptNode(card)))
      payload.textContent = nextPayload.textContent
      const nextForm = doc.querySelector<HTMLFormElement>(moreSelector)
      if (nextForm) {
        // Keep the same form and button, so focus stays on it: take the next page's fields.
        form.setAttribute('action', nextForm.getAttribute('action') ?? '')
        form.replaceChildren(...[...nextForm.childNodes].map((n) => document.adoptNode(n)))
        form.querySelector('button')?.focus()
        nearing?.observe(form)
      } else {
        form.remove()
        cards[0]?.querySelector<HTMLElement>('a')?.focus()
      }
      history.replaceState(history.state, '', address)
    } catch (error) {
      // The form still works as a plain GET: the next page, rendered by the server.
      console.warn('[blog] loading more in place failed, loading the next page instead', error)
      form.submit()
    } finally {
      end()
    }
  }

  const toast = () => {
    const region = document.querySelector('[role="status"][data-toast]')
    if (!region) return
    const message = document.createElement('p')
    message.className = options.toastClass
    message.textContent = options.thankYou
    region.replaceChildren(message)
    begin()
    setTimeout(() => {
      message.remove()
      end()
    }, options.toastMs)
  }

  const send = async (form: HTMLFormElement) => {
    begin()
    try {
      const fields = Object.fromEntries(
        [...new FormData(form)].map(([name, value]) => [name, String(value)]),
      )
      fields._next = location.href
      const response = await fetch(form.action, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', Accept: 'application/json'},
        body: JSON.stringify(fields),
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      form.reset()
      toast()
    } catch (error) {
      // The relay's own page says what went wrong, as it does without JavaScript.
      console.warn('[contact] sending failed, posting the form instead', error)
      form.submit()
    } finally {
      end()
    }
  }

  document.addEventListener('submit', (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement) || appRuns() || event.defaultPrevented) return
    if (form.hasAttribute(options.loadMoreAttribute)) {
      event.preventDefault()
      void loadMore(form)
    } else if (form.hasAttribute(options.contactAttribute)) {
      event.preventDefault()
      void send(form)
    }
  })

  // The app, at the first click or key press, once the browser is idle.
  const triggers = ['click', 'keydown']
  const listening = {capture: true, passive: true}
  const load = () => {
    // Elements, not import(): bundlers rewrite import() inside a function kept as source.
    for (const file of options.preload) {
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.href = file
      document.head.append(link)
    }
    const script = document.createElement('script')
    script.type = 'module'
    script.src = options.app
    script.onerror = () =>
      console.error(`The page could not be made interactive: ${options.app} did not load`)
    document.head.append(script)
  }
  const start = () => {
    for (const type of triggers) removeEventListener(type, start, listening)
    if ('requestIdleCallback' in window) requestIdleCallback(load, {timeout: 1000})
    else setTimeout(load, 200)
  }
  if (root.hasAttribute(options.previewAttribute)) {
    if (window.self !== window.top) root.setAttribute(options.framedAttribute, '')
    load()
  } else {
    for (const type of triggers) addEventListener(type, start, listening)
  }
}
