/**
 * Hrefs a reader must never be sent to, however their scheme is disguised (script, data, another
 * protocol), and values that are no href at all. Every href filter, the site's (`safeHref`) and
 * the social web's (`followableHref`), drops each of them; one list, so a disguise found for one
 * is tried on both.
 */
export const unsafeHrefs: readonly unknown[] = [
  'javascript:alert(1)',
  ' JavaScript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,x',
  'vbscript:x',
  'ftp://x.y/z',
  '',
  42,
  undefined,
]
