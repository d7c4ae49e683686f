import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Page} from 'playwright-core'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

/** What axe-core reports of one rule the page breaks. */
interface AxeViolation {
  id: string
  impact: string
  help: string
  nodes: Array<{target: string[]}>
}

/**
 * axe-core's violations on the page as it stands, one line each (rule, impact, help, the
 * elements), so a failing `toEqual([])` says what to fix. axe is evaluated through DevTools, not
 * a <script> tag: the site's CSP rightly refuses inline scripts, and a page without its app (no
 * JavaScript) is checked alike.
 */
export async function axe(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    // axe-core's global, defined just above.
    const result = await (
      window as unknown as {axe: {run(): Promise<{violations: AxeViolation[]}>}}
    ).axe.run()
    return result.violations
  })
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}
