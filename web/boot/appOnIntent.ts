import type {BootOptions} from './boot.ts'

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): the app
 * is imported at the visitor's first click or key press, when the browser is next idle, so a
 * visit that only reads (and scrolls) never downloads it, and the answer to a tap is painted
 * before the app's download and parse compete with it. In preview mode (`<html data-preview>`)
 * it is imported at once: the Studio's Presentation tool gives up on the overlays' connection
 * 3 s after framing the page; a framed preview page is marked `<html data-framed>` before its
 * first paint, which hides the preview bar (the Studio has its own).
 */
export function appOnIntent(options: BootOptions): void {
  const root = document.documentElement
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
