import {readFileSync} from 'node:fs'
import {XMLParser} from 'fast-xml-parser'
import {validateXML} from 'xmllint-wasm'
import type {BlockContent} from '../../shared/sanity.types.ts'

/** Test helpers shared by the unit and browser tests of the discovery files. */

const sitemapXsd = readFileSync(new URL('./fixtures/sitemap-0.9.xsd', import.meta.url), 'utf8')

/** libxml2's verdict on `xml` against the sitemap 0.9 schema: the error messages, empty if valid. */
export async function sitemapSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{fileName: 'sitemap.xml', contents: xml}],
    schema: [sitemapXsd],
  })
  return result.valid ? [] : result.errors.map((error) => error.message)
}

export interface ParsedUrl {
  loc: string
  lastmod?: string
}

/** The <url> entries of a sitemap, parsed with fast-xml-parser. */
export function sitemapUrls(xml: string): ParsedUrl[] {
  const parsed: unknown = new XMLParser({
    isArray: (name) => name === 'url',
    parseTagValue: false,
  }).parse(xml)
  const urlset =
    typeof parsed === 'object' && parsed !== null && 'urlset' in parsed ? parsed.urlset : undefined
  const urls = typeof urlset === 'object' && urlset !== null && 'url' in urlset ? urlset.url : []
  if (!Array.isArray(urls)) return []
  return urls.map((url: {loc: string; lastmod?: string}) => ({loc: url.loc, lastmod: url.lastmod}))
}

type Block = BlockContent[number] & {_type: 'block'}
type BlockStyle = NonNullable<Block['style']>

/** A Portable Text block with one span per [text, marks] pair and the given link targets. */
export function block(
  key: string,
  spans: Array<[text: string, marks?: string[]]>,
  options: {
    style?: BlockStyle
    listItem?: 'bullet' | 'number'
    links?: Record<string, string>
  } = {},
): Block {
  return {
    _type: 'block',
    _key: key,
    style: options.style ?? 'normal',
    ...(options.listItem ? {listItem: options.listItem, level: 1} : {}),
    markDefs: Object.entries(options.links ?? {}).map(([linkKey, href]) => ({
      _key: linkKey,
      _type: 'link' as const,
      href,
    })),
    children: spans.map(([text, marks = []], i) => ({
      _type: 'span' as const,
      _key: `${key}s${i}`,
      text,
      marks,
    })),
  }
}
