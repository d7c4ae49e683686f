import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {isRecord} from '../../util/isRecord.ts'

/**
 * Why an SVG upload is refused, or undefined when it carries nothing that could run. Originals
 * are also served under a sandbox CSP (images.ts), but an image that carries script is refused
 * outright (docs/security.md, "Images").
 *
 * The file is parsed, not matched as text: a text match let `<s:script>` (an SVG namespace
 * prefix) and `xlink:href="javascript&#58;…"` (a character reference) through (security review
 * 3, L4). Refused: elements whose local name is one of `activeElements`, in any namespace; any
 * `on*` attribute; an `href` (any prefix) or an animation of one whose value, with character
 * references decoded and whitespace removed as a browser does, names a scheme other than http,
 * https or a raster `data:image/…`; entity declarations and DOCTYPE internal subsets (billion
 * laughs, external entities); processing instructions other than the XML declaration
 * (`xml-stylesheet` can apply XSLT, which can write script); and anything that is not
 * well-formed UTF-8 XML, where a browser might read what the parser did not.
 */
export function svgRefusal(bytes: Buffer): string | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', {fatal: true}).decode(bytes)
  } catch {
    return 'An SVG must be UTF-8'
  }
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']*)["']/i.exec(text)?.[1]
  if (declared && !/^utf-?8$/i.test(declared)) return 'An SVG must be UTF-8'
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text))
    return 'An SVG with entity declarations is not accepted'
  if (XMLValidator.validate(text, {allowBooleanAttributes: false}) !== true)
    return 'The SVG is not well-formed XML'
  return refusalIn(parser.parse(text))
}

/** Elements that run script or embed a document, by local name (lower case), in any namespace. */
const activeElements = new Set([
  'script',
  'foreignobject',
  // SVG Tiny 1.2's event handlers, and HTML embedding elements, should a namespace make them live.
  'handler',
  'listener',
  'iframe',
  'embed',
  'object',
  // XInclude pulls another file into the document.
  'include',
])

/** Animation elements, whose `to`, `from`, `by` and `values` can set an `href` to a script URL. */
const animationValues = ['to', 'from', 'by', 'values']

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  // Raw values: character references are decoded here (`decodeReferences`), the way a browser does.
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
})

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase()

/** XML's character references and its five predefined entities (no others: DTDs are refused). */
const predefined: Record<string, string> = {lt: '<', gt: '>', amp: '&', quot: '"', apos: "'"}
function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return predefined[ref] ?? whole
    const code =
      ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : ''
  })
}

/**
 * Whether an `href` value may stay: no scheme (a fragment or a relative path), http(s), or a
 * raster image as a data URL. Browsers drop ASCII whitespace and controls from a URL's scheme
 * (WHATWG URL, "remove all ASCII tab or newline"), so they are dropped here before looking.
 */
function isImageHref(raw: string): boolean {
  const value = [...decodeReferences(raw)]
    .filter((char) => char.charCodeAt(0) > 0x20)
    .join('')
    .toLowerCase()
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(value)?.[1]
  // No scheme: a fragment or a relative path, on this image's own origin.
  if (scheme === undefined) return true
  if (scheme === 'http' || scheme === 'https') return true
  return scheme === 'data' && /^data:image\/(png|jpeg|jpg|gif|webp|avif)[;,]/.test(value)
}

/** The first reason to refuse in fast-xml-parser's ordered tree (`preserveOrder`), or undefined. */
function refusalIn(nodes: unknown): string | undefined {
  if (!Array.isArray(nodes)) return undefined
  for (const node of nodes) {
    if (!isRecord(node)) continue
    const attributes = isRecord(node[':@']) ? node[':@'] : {}
    for (const name of Object.keys(node)) {
      if (name === ':@' || name === '#text') continue
      if (name.startsWith('?')) {
        if (name !== '?xml') return 'An SVG with processing instructions is not accepted'
        continue
      }
      if (activeElements.has(localName(name)))
        return `An SVG with <${name}> (script or embedded documents) is not accepted`
      const refusal = attributeRefusal(attributes) ?? refusalIn(node[name])
      if (refusal) return refusal
    }
  }
  return undefined
}

function attributeRefusal(attributes: Record<string, unknown>): string | undefined {
  const animated = attributes.attributeName
  const animatesHref = typeof animated === 'string' && localName(animated) === 'href'
  for (const [name, raw] of Object.entries(attributes)) {
    const local = localName(name)
    const value = String(raw)
    if (local.startsWith('on')) return `An SVG with event handlers (${name}) is not accepted`
    const urls =
      local === 'href'
        ? [value]
        : animatesHref && animationValues.includes(local)
          ? value.split(';')
          : []
    if (urls.some((url) => !isImageHref(url)))
      return `An SVG linking to a non-image address (${name}) is not accepted`
  }
  return undefined
}
