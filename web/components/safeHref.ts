/**
 * Returns `href` if a rich-text link may point there: http(s), mailto, or a relative address.
 * Anything else (javascript:, data:, vbscript:, …) returns undefined and is shown as plain text.
 */
export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined
  const trimmed = href.trim()
  if (trimmed === '') return undefined
  // Browsers ignore tabs and newlines inside a scheme ("java\tscript:"), so judge it without them.
  const compact = trimmed.replace(/[\u0000-\u001f\u007f\s]+/g, '')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)
  if (!scheme) return compact.startsWith('//') ? undefined : trimmed
  return ['http', 'https', 'mailto'].includes(scheme[1].toLowerCase()) ? trimmed : undefined
}
