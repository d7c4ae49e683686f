import {describe, expect, it} from 'vitest'
import {bootScript} from './bootScript.ts'

const assets = {entry: '/assets/entry.client-abc.js', preload: ['/assets/react-def.js']}

/** Runs the inline script against a minimal stand-in for the page (the browser tests run it for real). */
function runInPage(
  html: string,
  href = 'http://site.example/contact',
  page: {attributes?: string[]; framed?: boolean} = {},
) {
  const source = /^<script>([\s\S]*)<\/script>$/.exec(html)?.[1]
  if (!source) throw new Error('not one inline script')
  const listeners: string[] = []
  const appended: Record<string, unknown>[] = []
  const replaced: string[] = []
  const attributes = new Set(page.attributes)
  const document = {
    documentElement: {
      dataset: {},
      hasAttribute: (name: string) => attributes.has(name),
      setAttribute: (name: string) => attributes.add(name),
    },
    readyState: 'loading',
    querySelectorAll: () => [],
    addEventListener: () => {},
    createElement: (tag: string) => ({tag}),
    head: {append: (element: Record<string, unknown>) => appended.push(element)},
  }
  const window = page.framed ? {self: {}, top: {}} : {}
  const on = (type: string) => listeners.push(type)
  const history = {
    state: null,
    replaceState: (_: unknown, __: string, url: URL) => replaced.push(String(url)),
  }
  new Function(
    'document',
    'window',
    'Element',
    'location',
    'history',
    'addEventListener',
    'removeEventListener',
    source,
  )(document, window, class {}, {href}, history, on, () => {})
  return {listeners, appended, replaced, attributes}
}

describe('bootScript', () => {
  it('is one self-contained inline script', () => {
    const html = bootScript(assets)
    const {listeners, appended, replaced} = runInPage(html)
    // The app waits for a click or a key; scrolling and reading bring nothing.
    expect(listeners).toEqual(expect.arrayContaining(['click', 'keydown', 'load']))
    expect(listeners).not.toContain('scroll')
    expect(listeners).not.toContain('pointermove')
    // Nothing is fetched before an interaction, and a plain address is left alone.
    expect(appended).toEqual([])
    expect(replaced).toEqual([])
    expect(html).toContain('"app":"/assets/entry.client-abc.js"')
  })

  it('in preview mode, adds the app at once and marks a framed page', () => {
    for (const framed of [false, true]) {
      const {listeners, appended, attributes} = runInPage(bootScript(assets), undefined, {
        attributes: ['data-preview'],
        framed,
      })
      expect(appended.map((element) => element.src ?? element.href)).toEqual([
        '/assets/react-def.js',
        '/assets/entry.client-abc.js',
      ])
      expect(listeners).not.toContain('click')
      expect(attributes.has('data-framed')).toBe(framed)
    }
  })

  it("drops the contact relay's one-time marker from the address", () => {
    const {replaced} = runInPage(bootScript(assets), 'http://site.example/contact?sent=abc&x=1')
    expect(replaced).toEqual(['http://site.example/contact?x=1'])
  })

  it('cannot be closed early by a file name', () => {
    const html = bootScript({entry: '/assets/</script><script>alert(1)//.js', preload: []})
    expect(html.match(/<\/script>/g)).toHaveLength(1)
  })
})
