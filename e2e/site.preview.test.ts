import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {axe} from './support/axe.ts'
import {chunkGraph} from '../scripts/chunkGraph.ts'
import {loadSiteBundle, type SiteBundle} from '../server/render/bundle.ts'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {
  block,
  createPosts,
  hydrated,
  openPage,
  enterPreview,
  startSite,
  stopSite,
  unexpected,
  type TestServer,
} from './site.fixtures.ts'

// Preview mode as the site renders it (web/preview/, docs/site.md "Preview mode"): the built
// renderer with a preview credential (the owner's token, which the lake accepts for drafts), the
// browser given that page, and the public pages of the same server beside it.

let site: {server: TestServer; browser: Browser}
let bundle: SiteBundle
/** The files of the preview-only chunk graph (e2e/studio-chunks.test.ts checks the split). */
let previewFiles: string[]

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, [
    {slug: 'first', title: 'Published title', date: '2024-06-30', category: 'Fiction'},
    {slug: 'second', title: 'Second post', date: '2024-05-30', category: 'Kashmir'},
  ])
  await site.server.lake!.mutate([
    // The owner is editing the first post, and has a post that was never published.
    {
      createOrReplace: {
        _id: 'drafts.post-first',
        _type: 'post',
        title: 'Draft title',
        slug: {_type: 'slug', current: 'first'},
        date: '2024-06-30',
        category: 'Fiction',
        excerpt: 'Draft excerpt.',
        body: [block('b1', 'Draft body.')],
      },
    },
    {
      createOrReplace: {
        _id: 'drafts.post-unpublished',
        _type: 'post',
        title: 'Never published',
        slug: {_type: 'slug', current: 'unpublished'},
        date: '2024-07-01',
        category: 'Kashmir',
        excerpt: 'Not public yet.',
        body: [block('b1', 'Secret body.')],
      },
    },
  ])
  const loaded = await loadSiteBundle('dist')
  if (!loaded) throw new Error('the site is not built: npm run build')
  bundle = loaded
  // What only preview mode loads (not React, the router or the content client, which it shares).
  previewFiles = [...chunkGraph('dist/client').previewOnlyFiles]
  expect(previewFiles.length).toBeGreaterThan(0)
})

afterAll(() => stopSite(site))

const owner = () => ({authorization: `Bearer ${site.server.lake!.token}`})

/** A page rendered in preview mode by the built renderer, as server/preview/ will ask for it. */
async function renderPreview(path: string): Promise<{status: number; html: string}> {
  const rendered = await bundle.renderer.render(new Request(new URL(path, site.server.url)), {
    site: resolveSiteConfig({siteUrl: site.server.config.siteUrl}),
    contentOrigin: site.server.url,
    assets: bundle.assets,
    preview: {headers: owner()},
  })
  if (rendered instanceof Response) throw new Error(`${path}: ${rendered.status} redirect`)
  expect(rendered.cacheable, path).toBe(false)
  return rendered
}

/** The `data-sanity` value of one field of one post (web/preview/sanityNode.ts). */
const node = (id: string, path: string) =>
  `data-sanity="id=${id};type=post;path=${path};base=%2Fstudio"`

/** A fresh page over the HTTPS listener (the preview cookie counts there only). */
const openSecurePage = () => openPage(site.browser, {ignoreHTTPSErrors: true})

describe('preview mode, as rendered', () => {
  it("a post shows the owner's draft, its title, date and body marked for the overlays", async () => {
    const {status, html} = await renderPreview('/blog/first')
    expect(status).toBe(200)
    expect(html).toContain('Draft title')
    expect(html).toContain('Draft body.')
    expect(html).not.toContain('Published title')
    expect(html).toMatch(new RegExp(`<h1 ${node('post-first', 'title')}>Draft title</h1>`))
    expect(html).toMatch(new RegExp(`<time [^>]*${node('post-first', 'date')}`))
    expect(html).toMatch(new RegExp(`<div [^>]*${node('post-first', 'body')}`))
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en" data-preview="">/)
    expect(html).toContain('"preview":true')
    // The bar, with a real link out of preview that comes back here.
    expect(html).toContain('Preview: drafts shown')
    expect(html).toContain('href="/api/preview/disable?redirect=%2Fblog%2Ffirst">Exit</a>')
  })

  it('a never-published draft has its page; lists show drafts, each card marked', async () => {
    expect((await renderPreview('/blog/unpublished')).html).toContain('Never published')
    for (const path of ['/blog', '/']) {
      const {html} = await renderPreview(path)
      for (const [id, title] of [
        ['post-unpublished', 'Never published'],
        ['post-first', 'Draft title'],
        ['post-second', 'Second post'],
      ]) {
        expect(html, path).toMatch(new RegExp(`<h[23] ${node(id, 'title')}><a [^>]*>${title}</a>`))
        expect(html, path).toContain(`<p ${node(id, 'excerpt')}>`)
      }
    }
  })

  it('public pages of the same server carry nothing of it', async () => {
    for (const path of ['/', '/blog', '/blog/first', '/blog/unpublished']) {
      const response = await fetch(`${site.server.url}${path}`)
      const html = await response.text()
      expect(response.status, path).toBe(path === '/blog/unpublished' ? 404 : 200)
      expect(html, path).toMatch(/^<!DOCTYPE html><html lang="en"><head>/)
      // Not even the bar's styles (the boot script names the preview attribute, nothing more).
      for (const text of [
        'data-sanity=',
        'Preview: drafts',
        'data-framed]',
        '"preview":true',
        'Draft ',
      ])
        expect(html, `${path}: ${text}`).not.toContain(text)
      expect(html, path).not.toContain('Never published')
    }
    expect(await (await fetch(`${site.server.url}/blog/first`)).text()).toContain('Published title')
  })
})

describe('preview mode in the browser', () => {
  it('loads the app and the overlays at once, with no interaction; the bar is keyboard-ready and axe-clean', async () => {
    const {page, problems} = await openSecurePage()
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await enterPreview(page, site.server, '/blog/first')
    // No key, no click: both come on their own. How soon (the Studio gives up on the overlays'
    // connection after 3 s) is logged, not asserted: a busy test machine is no measure of it.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.locator('sanity-visual-editing').waitFor({state: 'attached'})
    const sinceStart = await page.evaluate(() => Math.round(performance.now()))
    console.log(`[preview] app hydrated and overlays mounted ${sinceStart} ms after navigation`)
    expect(scripts.some((path) => previewFiles.includes(path.slice(1)))).toBe(true)

    const bar = page.getByRole('complementary', {name: 'Preview mode'})
    await expect(bar.textContent()).resolves.toBe('Preview: drafts shown · Exit')
    expect(await bar.isVisible()).toBe(true)
    await page.keyboard.press('Tab')
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('href'))
    expect(focused).toBe('/api/preview/disable?redirect=%2Fblog%2Ffirst')
    expect(await page.locator('h1').textContent()).toBe('Draft title')
    expect(await axe(page)).toEqual([])
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('framed (as in the Studio), the page hides its bar', async () => {
    const {page, problems} = await openSecurePage()
    await enterPreview(page, site.server, '/blog/first')
    // A page of the same origin that frames the site, as the Studio does (the site's CSP allows
    // 'self' only): the test's own stand-in for the Studio's page.
    await page.route(`${site.server.httpsUrl}/frame`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Frame</title><iframe src="/blog/first" title="Preview" width="900" height="700"></iframe></html>',
      }),
    )
    await page.goto(`${site.server.httpsUrl}/frame`)
    const frame = page.frameLocator('iframe')
    await frame.locator('html[data-hydrated="true"]').waitFor({state: 'attached'})
    expect(await frame.locator('html').getAttribute('data-framed')).toBe('')
    expect(await frame.getByRole('complementary', {name: 'Preview mode'}).count()).toBe(0)
    expect(await frame.locator('h1').textContent()).toBe('Draft title')
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('navigating in the page reads drafts through the preview content path', async () => {
    const {page, problems} = await openSecurePage()
    const contentReads = await enterPreview(page, site.server, '/blog/first')
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByRole('navigation').getByRole('link', {name: 'Blog'}).click()
    await page.getByRole('heading', {name: 'Never published'}).waitFor()
    expect(contentReads.length).toBeGreaterThan(0)
    expect(await page.getByRole('heading', {name: 'Draft title'}).getAttribute('data-sanity')).toBe(
      'id=post-first;type=post;path=title;base=%2Fstudio',
    )
    expect(await page.evaluate(() => location.pathname)).toBe('/blog')
    const exit = page.getByRole('link', {name: 'Exit'})
    expect(await exit.getAttribute('href')).toBe('/api/preview/disable?redirect=%2Fblog')
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('follows a saved draft in place, without a reload (by live events)', async () => {
    const {page, problems} = await openSecurePage()
    await enterPreview(page, site.server, '/blog/first')
    await page.locator('sanity-visual-editing').waitFor({state: 'attached'})
    // A marker a full reload would lose.
    await page.evaluate(() => ((window as {kept?: boolean}).kept = true))
    const saved = Date.now()
    await site.server.lake!.mutate([
      {patch: {id: 'drafts.post-first', set: {title: 'Draft title, saved again'}}},
    ])
    await page.getByRole('heading', {level: 1, name: 'Draft title, saved again'}).waitFor()
    console.log(`[preview] saved draft to page: ${Date.now() - saved} ms`)
    expect(await page.evaluate(() => (window as {kept?: boolean}).kept)).toBe(true)
    await site.server.lake!.mutate([
      {patch: {id: 'drafts.post-first', set: {title: 'Draft title'}}},
    ])
    await page.getByRole('heading', {level: 1, name: 'Draft title'}).waitFor()
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('a public page loads no preview code, even once hydrated, and has no bar', async () => {
    const {page, problems} = await openPage(site.browser)
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await page.goto(`${site.server.url}/blog/first`)
    expect(scripts).toEqual([])
    await hydrated(page)
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((path) => previewFiles.includes(path.slice(1)))).toEqual([])
    expect(await page.locator('sanity-visual-editing, [data-sanity], [data-preview]').count()).toBe(
      0,
    )
    expect(await page.getByRole('complementary', {name: 'Preview mode'}).count()).toBe(0)
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })
})
