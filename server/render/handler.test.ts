import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../e2e/support/server.ts'
import {resolveSiteConfig} from '../../web/env.ts'
import {createSiteHandler, type SiteHandler} from './handler.ts'

// The built site (npm run build) rendering the seeded content of a real lake.
const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))
let server: Awaited<ReturnType<typeof startTestServer>>
let handler: SiteHandler

beforeAll(async () => {
  server = await startTestServer()
  handler = createSiteHandler({
    distDir,
    site: () => resolveSiteConfig({siteUrl: server.config.siteUrl}),
    contentOrigin: () => server.url,
    cache: true,
  })
})
afterAll(() => server.stop())

const get = (path: string) => handler.handle(new Request(`${server.url}${path}`))

describe('the render cache', () => {
  it('query-string parameters no route reads create no entry', async () => {
    expect((await get('/')).status).toBe(200)
    const first = handler.cached()
    for (let i = 0; i < 50; i++) expect((await get(`/?x=${i}`)).status).toBe(200)
    expect(await (await get('/?utm_source=a&x=1')).text()).toBe(await (await get('/')).text())
    expect(handler.cached()).toEqual(first)
  })

  it('keeps the blog tabs apart, and maps a made-up category to Latest', async () => {
    await get('/blog')
    await get('/blog?category=Kashmir')
    const before = handler.cached()
    for (let i = 0; i < 20; i++) await get(`/blog?category=none-${i}`)
    await get('/blog?category=Kashmir&page=2')
    expect(handler.cached()).toEqual(before)
    expect(before.pages).toBeGreaterThanOrEqual(3)
  })

  it('a flood of made-up addresses evicts no real page', async () => {
    const real = handler.cached().pages
    for (let i = 0; i < 100; i++) await get(`/blog/no-such-post-${i}`)
    for (const variant of ['/SERVICES', '/services//', '/Services/', '/testimonial'])
      await get(variant)
    const after = handler.cached()
    expect(after.pages).toBe(real)
    expect(after.others).toBeLessThanOrEqual(64)
    const page = await get('/blog/no-such-post-1')
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('Post not found.')
  })
})
