import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {loadSiteBundle, type SiteBundle} from '../server/render/bundle.ts'
import {internalHeaders} from '../server/lake/index.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../test/support/lakeUnderTest.ts'
import type {RenderOptions} from '../web/entry.server.tsx'

// The built renderer (web/entry.server.tsx) renders a page with renderToString unless something
// suspends, and reads a lake in the same process without a socket: every page must be the same
// HTML as with prerender alone and as with reads over HTTP.

let lake: LakeUnderTest
let bundle: SiteBundle
let paths: string[]

beforeAll(async () => {
  lake = await startLakeUnderTest({seed: true})
  const built = await loadSiteBundle(fileURLToPath(new URL('../dist/', import.meta.url)))
  if (!built) throw new Error('the site is not built: run `npm run build`')
  bundle = built
  const [slug] = await lake.anon.fetch<string[]>(
    '*[_type == "post" && defined(slug.current)] | order(date desc) [0...1].slug.current',
  )
  const [category] = await lake.anon.fetch<string[]>('*[_type == "post"][0...1].category')
  paths = [
    '/',
    '/services',
    '/testimonials',
    '/blog',
    `/blog?category=${category}`,
    `/blog/${slug}`,
    '/contact',
    '/search?q=editing',
    '/search?q=zzzqqq',
    '/no-such-page',
  ]
})
afterAll(() => lake.stop())

async function render(path: string, options: Partial<RenderOptions>): Promise<string> {
  const rendered = await bundle.renderer.render(new Request(new URL(path, 'http://site.test')), {
    site: resolveSiteConfig({siteUrl: 'http://site.test'}),
    contentOrigin: lake.url,
    contentHeaders: internalHeaders(lake.lake),
    assets: bundle.assets,
    ...options,
  })
  if (rendered instanceof Response) throw new Error(`${path}: ${rendered.status} redirect`)
  return `${rendered.status} ${rendered.syncTags.join(',')}\n${rendered.html}`
}

/** A page with its styled-components style tag emptied, and that tag's rules. */
function stylesApart(page: string): {page: string; rules: string[]} {
  const tag = /(<style data-styled[^>]*>)([\s\S]*?)(<\/style>)/
  const rules = (tag.exec(page)?.[2] ?? '').split('/*!sc*/').filter((rule) => rule.trim() !== '')
  return {page: page.replace(tag, '$1$3'), rules}
}

/** Whether a style rule's class (`.name{…}`) is on an element of `page`. */
const usedIn = (page: string) => (rule: string) => {
  const name = /^\s*\.([\w-]+)\{/.exec(rule)?.[1]
  return name !== undefined && new RegExp(`class="[^"]*\\b${name}\\b`).test(page)
}

describe('the server renderer', () => {
  it('gives the same page with renderToString as with prerender alone, Home once its lazy section has loaded', async () => {
    // The first render of Home waits for its lazy section (and collects its fallback's styles).
    await render('/', {})
    for (const path of paths) {
      const prerendered = await render(path, {prerenderOnly: true})
      expect(prerendered, path).toMatch(/^\d{3} .*\n<!DOCTYPE html><html/)
      const quick = stylesApart(await render(path, {}))
      const whole = stylesApart(prerendered)
      expect(quick.page, path).toBe(whole.page)
      // prerender also collects the styles of a Suspense fallback it did not send (Home's
      // Loading): the only rules renderToString may lack are ones no element of the page uses.
      expect(
        whole.rules.filter((rule) => !quick.rules.includes(rule)).filter(usedIn(whole.page)),
        path,
      ).toEqual([])
      expect(
        quick.rules.filter((rule) => !whole.rules.includes(rule)),
        path,
      ).toEqual([])
    }
  })

  it('gives the same page reading its own lake in process as over HTTP', async () => {
    for (const path of paths) {
      const overHttp = await render(path, {})
      expect(await render(path, {contentQuery: lake.siteQuery}), path).toBe(overHttp)
    }
  })
})
