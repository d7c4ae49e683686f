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

/**
 * Spellings a browser reads as `//evil.example`, another origin: the WHATWG URL parser reads a
 * backslash as `/` and drops tabs and newlines anywhere. Neither a site link (`safeHref`) nor a
 * redirect's site path (`isSitePath`) may be one of them.
 */
export const otherHostSpellings: readonly string[] = [
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  ' \\\\evil.example/path',
  '/\t/evil.example',
  '\t//evil.example',
  '/\n\\evil.example',
]
