/** Marks a <time> whose text the browser shows in its own locale (PostDate). */
export const localeDateAttribute = 'data-locale-date'
/** Dispatched on `document` once React has hydrated the page (entry.client.tsx). */
export const hydratedEvent = 'site:hydrated'

export interface BootOptions {
  /** The app's entry (React, router, styles) and the chunks it imports, fetched in parallel. */
  app: string
  preload: string[]
  localeDateAttribute: string
  hydratedEvent: string
}

/**
 * The only JavaScript a page runs up front. The server inlines it at the end of <body> as
 * `(${boot})(options, formatPostDate)` (bootScript.ts), so it runs before the first paint with no
 * request, and must refer to nothing outside itself.
 *
 * The server's HTML is the complete page: links navigate and the contact form posts without
 * JavaScript. So the app is imported at the visitor's first interaction, and a visit that only
 * reads never downloads, parses or runs it. Meanwhile this
 * - shows post dates in the browser's locale (the server cannot know it and writes ISO dates);
 * - holds clicks on buttons, which do nothing until React listens, and replays them once the page
 *   is hydrated: a visitor who taps the menu while the app loads gets the menu.
 */
export function boot(options: BootOptions, formatDate: (date: string) => string): void {
  for (const time of document.querySelectorAll<HTMLTimeElement>(
    `time[${options.localeDateAttribute}]`,
  )) {
    time.textContent = formatDate(time.dateTime)
  }

  const held: HTMLButtonElement[] = []
  const hold = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null
    if (!button || button.disabled) return
    event.preventDefault()
    event.stopImmediatePropagation()
    if (!held.includes(button)) held.push(button)
  }
  const release = () => {
    document.removeEventListener('click', hold, true)
    for (const button of held.splice(0)) if (button.isConnected) button.click()
  }
  document.addEventListener('click', hold, true)

  // The first interaction: a pointer moving or pressed, a touch, wheel, scroll, key, focus, or a
  // click (assistive technology may click with no pointer or key event before it).
  const interactions = [
    'pointermove',
    'pointerdown',
    'touchstart',
    'wheel',
    'scroll',
    'keydown',
    'focusin',
    'click',
  ]
  const listening = {capture: true, passive: true}
  const start = () => {
    for (const type of interactions) window.removeEventListener(type, start, listening)
    document.addEventListener(options.hydratedEvent, release, {once: true})
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
    script.onerror = () => {
      console.error(`The page could not be made interactive: ${options.app} did not load`)
      release()
    }
    document.head.append(script)
  }
  for (const type of interactions) window.addEventListener(type, start, listening)
}
