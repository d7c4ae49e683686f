/** A JSON-LD value: what schema.org's vocabulary is written in. */
export type JsonLdValue =
  string | number | boolean | null | JsonLdValue[] | {[key: string]: JsonLdValue | undefined}

/**
 * JSON for inside a <script> element. JSON.stringify alone is not enough: content such as a
 * post title containing `</script>` or `<!--` would end or change the script element, so every
 * `<`, `>` and `&` is written as a JSON unicode escape (same value, no markup), and so are
 * U+2028/U+2029, which older JavaScript parsers treat as line ends.
 */
export function serializeJsonLd(data: JsonLdValue): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * Structured data (https://schema.org) for search engines, as Google recommends it: a
 * `<script type="application/ld+json">` anywhere in the page. Pass one object or a list.
 */
export function JsonLd({data}: {data: JsonLdValue}) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{__html: serializeJsonLd(data)}} />
  )
}
