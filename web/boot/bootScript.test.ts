import {describe, expect, it} from 'vitest'
import {formatPostDate} from '../components/formatDate.ts'
import {bootScript} from './bootScript.ts'

const assets = {entry: '/assets/entry.client-abc.js', preload: ['/assets/react-def.js']}

/** Runs the inline script against a minimal stand-in for the page (the browser tests run it for real). */
function runInPage(html: string) {
  const source = /^<script>([\s\S]*)<\/script>$/.exec(html)?.[1]
  if (!source) throw new Error('not one inline script')
  const time = {dateTime: '2024-03-05', textContent: '2024-03-05'}
  const listeners: string[] = []
  const appended: Record<string, unknown>[] = []
  const document = {
    querySelectorAll: (selector: string) => (selector === 'time[data-locale-date]' ? [time] : []),
    addEventListener: () => {},
    removeEventListener: () => {},
    createElement: (tag: string) => ({tag}),
    head: {append: (element: Record<string, unknown>) => appended.push(element)},
  }
  const window = {
    addEventListener: (type: string) => listeners.push(type),
    removeEventListener: () => {},
  }
  new Function('document', 'window', 'Element', source)(document, window, class {})
  return {time, listeners, appended}
}

describe('bootScript', () => {
  it('is one self-contained inline script that formats post dates in the browser locale at once', () => {
    const html = bootScript(assets)
    const {time, listeners, appended} = runInPage(html)
    expect(time.textContent).toBe(formatPostDate('2024-03-05'))
    expect(listeners).toEqual(
      expect.arrayContaining([
        'pointerdown',
        'touchstart',
        'keydown',
        'focusin',
        'scroll',
        'click',
      ]),
    )
    // Nothing is fetched before an interaction.
    expect(appended).toEqual([])
    expect(html).toContain('"app":"/assets/entry.client-abc.js"')
  })

  it('cannot be closed early by a file name', () => {
    const html = bootScript({entry: '/assets/</script><script>alert(1)//.js', preload: []})
    expect(html.match(/<\/script>/g)).toHaveLength(1)
  })
})
