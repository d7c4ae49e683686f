/**
 * Text made safe for the feeds' XML whatever an author typed into a title or a body.
 */

/**
 * Characters XML 1.0 does not allow anywhere, even escaped (https://www.w3.org/TR/xml/#charsets):
 * C0 controls other than tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
 * A parser must stop at the first one, so a single pasted control character would break a feed.
 */
const forbidden = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** `text` without the characters XML 1.0 forbids. */
export function stripForbiddenXmlChars(text: string): string {
  return text.replace(forbidden, '')
}

const cdataEnd = ']]>'
/** Ends the CDATA section between `]]` and `>` and opens a new one: the text reads the same. */
const cdataSplit = ']]]]><![CDATA[>'

/**
 * Text for a field the feed package writes as CDATA. Its XML writer (xml-js) splits only the
 * first `]]>` of a CDATA value, so a second one would end the section early and break the feed:
 * this splits every later one itself, leaving the first to xml-js (splitting that one too would
 * make xml-js split the `]]>` inside our own split). The round trip is tested in feeds.test.ts.
 */
export function cdataText(text: string): string {
  const first = text.indexOf(cdataEnd)
  if (first === -1) return text
  const head = text.slice(0, first + cdataEnd.length)
  return head + text.slice(head.length).replaceAll(cdataEnd, cdataSplit)
}
