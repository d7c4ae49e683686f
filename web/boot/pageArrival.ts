import type {BootOptions} from './boot.ts'

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): what a
 * page does as it arrives. A prerendered page (the speculation rules) made its request before
 * the reader chose it, and was not counted then: it is counted when shown
 * (docs/reader-statistics.md). The relay's one-time marker has been used: it is kept out of the
 * address a reload would ask for.
 */
export function pageArrival(options: BootOptions): void {
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
  const address = new URL(location.href)
  if (address.searchParams.has(options.sentParam)) {
    address.searchParams.delete(options.sentParam)
    history.replaceState(history.state, '', address)
  }
}
