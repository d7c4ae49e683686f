/** What a page view is kept by of its user agent: a class and a family, never the string. */
export type DeviceClass = 'phone' | 'tablet' | 'desktop'

/**
 * Tablets first: iPads and Android without "Mobile" (Android's own convention for tablets,
 * developer.android.com's user-agent guidance), then phones ("Mobi" is Mozilla's advice).
 */
export function deviceClass(userAgent: string): DeviceClass {
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobi)/i.test(userAgent)) return 'tablet'
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'phone'
  return 'desktop'
}

/**
 * The browser family, in the order their user agents must be tested: Edge, Opera and Samsung
 * Internet all say "Chrome", and Chrome says "Safari". Anything else is "Other".
 */
const families: Array<[string, RegExp]> = [
  ['Edge', /Edg(e|A|iOS)?\//],
  ['Opera', /OPR\/|Opera/],
  ['Samsung Internet', /SamsungBrowser\//],
  ['Firefox', /Firefox\/|FxiOS\//],
  ['Chrome', /Chrome\/|CriOS\//],
  ['Safari', /Safari\//],
]

export function browserFamily(userAgent: string): string {
  for (const [family, pattern] of families) if (pattern.test(userAgent)) return family
  return 'Other'
}

/**
 * A feed aggregator's report of its subscribers, as they put it in their user agent
 * (`Feedly/1.0 (+http://…; 42 subscribers)`, `NewsBlur Feed Fetcher - 12 subscribers - …`):
 * the aggregator's name (the agent up to its first `/`, `(`, `;` or ` - `) and the count.
 */
export function feedSubscribers(
  userAgent: string,
): {aggregator: string; subscribers: number} | undefined {
  const count = /\b(\d{1,9}) (?:subscribers?|readers?)\b/i.exec(userAgent)
  if (!count) return undefined
  const aggregator = userAgent
    .split(/\/|\(|;| - /)[0]
    .trim()
    .slice(0, 64)
  if (!aggregator) return undefined
  return {aggregator, subscribers: Number(count[1])}
}
