import {renderToStaticMarkup} from 'react-dom/server'
import {describe, expect, it} from 'vitest'
import {JsonLd, serializeJsonLd} from './JsonLd.tsx'

/** The text inside the one <script> element of `html`, as a browser's parser would end it. */
function scriptText(html: string): string {
  const match = /^<script type="application\/ld\+json">([\s\S]*?)<\/script>$/i.exec(html)
  if (!match) throw new Error(`not a single JSON-LD script: ${html}`)
  return match[1]
}

describe('JsonLd', () => {
  it('renders a JSON-LD script whose text parses back to the data', () => {
    const data = {
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: 'Ana',
      knowsAbout: ['Editing', 'Proofreading'],
    }
    expect(JSON.parse(scriptText(renderToStaticMarkup(<JsonLd data={data} />)))).toEqual(data)
  })

  it('cannot be broken out of by content: no "<" reaches the markup, the value survives', () => {
    const title = '</script><script>alert(1)</script><!-- & \u2028'
    const html = renderToStaticMarkup(<JsonLd data={{headline: title}} />)
    const text = scriptText(html)
    expect(text).not.toMatch(/[<>]/)
    expect(JSON.parse(text)).toEqual({headline: title})
  })

  it('escapes <, >, &, U+2028 and U+2029 as JSON unicode escapes', () => {
    expect(serializeJsonLd('<>&\u2028\u2029')).toBe('"\\u003c\\u003e\\u0026\\u2028\\u2029"')
  })
})
