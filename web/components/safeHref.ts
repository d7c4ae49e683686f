/**
 * Returns `href` if a rich-text link may point there: http(s), mailto, or a relative address.
 * Anything else (javascript:, data:, vbscript:, …) returns undefined and is shown as plain text,
 * and so is a protocol-relative address (`//host`), which would leave the site without a scheme
 * the reader can see.
 */
export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined
  const trimmed = href.trim()
  if (trimmed === '') return undefined
  // Browsers ignore tabs and newlines anywhere in a URL ("java\tscript:", "/\t/host"), so judge
  // it without them. And the WHATWG URL parser reads `\` as `/` in http(s) URLs, so `/\host`,
  // `\\host` and `\/host` are all `//host` to a browser.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const compact = trimmed.replace(/[\u0000-\u001f\u007f\s]+/g, '').replaceAll('\\', '/')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)
  if (!scheme) return compact.startsWith('//') ? undefined : trimmed
  return ['http', 'https', 'mailto'].includes(scheme[1].toLowerCase()) ? trimmed : undefined
}
