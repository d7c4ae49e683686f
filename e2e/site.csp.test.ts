import {createHash} from 'node:crypto'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  createPosts,
  hydrated,
  openPage,
  postsOf,
  startSite,
  stopSite,
  unexpected,
  type TestServer,
} from './site.fixtures.ts'

// The pages' Content-Security-Policy (server/http/securityHeaders.ts) holds the boot script by
// hash: every route must load, hydrate at the first interaction and work with no violation.
let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite()
  await createPosts(site.server, [
    ...postsOf('Fiction', 8, '2024-06-30'),
    ...postsOf('Kashmir', 2, '2024-05-30'),
  ])
})

afterAll(() => stopSite(site))

/** A page whose CSP violations are reported as console errors (the fixture collects those). */
async function watchedPage(): Promise<{page: Page; problems: string[]}> {
  const opened = await openPage(site.browser)
  await opened.page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  return opened
}

const routes = [
  '/',
  '/service',
  '/services',
  '/testimonial',
  '/testimonials',
  '/blog',
  '/blog?category=Kashmir',
  '/blog/fiction-1',
  '/contact',
  '/search?q=fiction',
  '/subscribed',
  '/no-such-page',
  '/blog/no-such-post',
]

describe('Content-Security-Policy', () => {
  it('every page sends the policy, and it holds the hashes of the page’s inline scripts', async () => {
    for (const path of routes) {
      const response = await fetch(`${site.server.url}${path}`)
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("frame-ancestors 'self'")
      expect(response.headers.get('permissions-policy'), path).toContain('camera=()')
      const html = await response.text()
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      const executable = inline.filter(
        ([, attrs]) => !/type="application\/(ld\+)?json"/.test(attrs),
      )
      // The boot script and the speculation rules (web/boot/), each held by its hash.
      expect(
        executable.map(([, attrs]) => attrs.trim()),
        path,
      ).toEqual(['', 'type="speculationrules"'])
      for (const [, , source] of executable) {
        const hash = createHash('sha256').update(source).digest('base64')
        expect(csp, path).toContain(`'sha256-${hash}'`)
      }
    }
  })

  for (const path of routes) {
    it(`${path}: loads and hydrates at the first interaction with no violation`, async () => {
      const {page, problems} = await watchedPage()
      await page.goto(`${site.server.url}${path}`)
      await hydrated(page)
      expect(unexpected(problems, true)).toEqual([])
    })
  }

  it('client navigation, tabs and Load More fetch content with no violation', async () => {
    const {page, problems} = await watchedPage()
    await page.goto(`${site.server.url}/`)
    await hydrated(page)
    await page.goto(`${site.server.url}/blog`)
    await hydrated(page)
    await page.getByRole('link', {name: 'Kashmir', exact: true}).click()
    await page.waitForURL(/category=Kashmir/)
    await page.getByRole('link', {name: 'Fiction', exact: true}).click()
    await page.waitForURL(/category=Fiction/)
    await page.getByRole('button', {name: 'Load More'}).click()
    await page.getByText('Fiction 7').first().waitFor()
    expect(unexpected(problems)).toEqual([])
  })

  it('the contact form sends by fetch with no violation', async () => {
    const {page, problems} = await watchedPage()
    await page.goto(`${site.server.url}/contact`)
    await hydrated(page)
    await page.getByLabel('Name').fill('Amina')
    await page.getByLabel('Email').fill('amina@example.com')
    await page.getByLabel('Message').fill('Hello under a policy.')
    await page.getByRole('button', {name: 'Send'}).click()
    await page.getByText('Thank you! Your message was sent.').waitFor()
    expect(unexpected(problems)).toEqual([])
  })
})
