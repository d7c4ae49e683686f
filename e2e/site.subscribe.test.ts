import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {axe} from './support/axe.ts'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {linkIn} from '../server/newsletter/testing/mailLinks.ts'
import {mailTo} from '../server/newsletter/testing/subscribeFlow.ts'
import {
  block,
  createPosts,
  openPage,
  startSite,
  stopSite,
  unexpected,
  withoutApp,
  type TestServer,
} from './site.fixtures.ts'

// The subscribe form in Chromium (issue #26): with JavaScript disabled, from a post to the
// confirmed page through the mail a real SMTP server captured.
let site: {server: TestServer; browser: Browser}
let sink: SmtpSink

beforeAll(async () => {
  sink = await new SmtpSink().listen()
  site = await startSite({SMTP_URL: `smtp://127.0.0.1:${sink.port}`})
  await createPosts(site.server, [
    {
      slug: 'a-post',
      title: 'A Post',
      date: '2024-05-01',
      category: 'General',
      body: [block('p', 'Words to read before subscribing.')],
    },
  ])
})

afterAll(async () => {
  await stopSite(site)
  await sink?.close()
})

describe('subscribing without JavaScript', () => {
  it('the form at the end of a post → the confirmation mail → its link → subscribed', async () => {
    const {page, problems} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/blog/a-post`)
    const form = page.getByRole('region', {name: 'Get new posts by email'})
    await form.getByLabel('Email address').fill('nojs@example.com')
    await form.getByRole('button', {name: 'Subscribe'}).click()
    await page.getByRole('heading', {name: 'Check your inbox'}).waitFor()
    expect(await page.getByRole('status').textContent()).toContain('a mail is on its way')
    // Post/redirect/get (issue #35): the answer is a site page, which a reload asks for again
    // without posting the form.
    expect(new URL(page.url()).pathname).toBe('/subscribed')
    const reloaded = await page.reload()
    expect(reloaded?.status()).toBe(200)
    expect(reloaded?.request().method()).toBe('GET')
    await page.getByRole('heading', {name: 'Check your inbox'}).waitFor()

    const mail = await mailTo(sink, 'nojs@example.com')
    const confirm = linkIn(mail, '/api/subscribe/confirm').replace(
      site.server.config.siteUrl,
      site.server.url,
    )
    await page.goto(confirm)
    await page.getByRole('heading', {name: 'You are subscribed'}).waitFor()
    const stored = await site.server.lake!.query<Array<{status: string}>>(
      '*[_type == "subscriber" && email == $email]{status}',
      {email: 'nojs@example.com'},
      {authenticated: true},
    )
    expect(stored).toEqual([{status: 'active'}])
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('Home has the form too, and the footer links to it and to RSS', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    await page.goto(`${site.server.url}/`)
    await page.getByRole('region', {name: 'Get new posts by email'}).waitFor()
    const footer = page.locator('footer')
    expect(await footer.getByRole('link', {name: 'Subscribe'}).getAttribute('href')).toBe(
      '/#subscribe',
    )
    expect(await footer.getByRole('link', {name: 'RSS'}).getAttribute('href')).toBe('/rss.xml')
    await page.context().close()
  })

  // Issue #35: the footer's Subscribe and RSS links, visible on every route (the post page's
  // own layout had no footer).
  const everyRoute = [
    '/',
    '/service',
    '/testimonial',
    '/blog',
    '/blog/a-post',
    '/blog/missing',
    '/contact',
    '/search?q=words',
    '/subscribed',
    '/no/such/page',
  ]
  it('every route: Subscribe and RSS are visible in the footer', async () => {
    const {page} = await openPage(site.browser, {javaScriptEnabled: false})
    for (const path of everyRoute) {
      await page.goto(`${site.server.url}${path}`)
      const footer = page.locator('footer')
      const subscribe = footer.getByRole('link', {name: 'Subscribe'})
      const rss = footer.getByRole('link', {name: 'RSS'})
      await subscribe.scrollIntoViewIfNeeded()
      expect(await subscribe.isVisible(), path).toBe(true)
      expect(await rss.isVisible(), path).toBe(true)
      expect(await subscribe.getAttribute('href'), path).toBe('/#subscribe')
      expect(await rss.getAttribute('href'), path).toBe('/rss.xml')
    }
    await page.context().close()
  })

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`Home, a post with the form and its footer, the subscribed page: no axe violations (${colorScheme})`, async () => {
      const {page, problems} = await openPage(site.browser, {colorScheme})
      await withoutApp(page)
      await page.goto(`${site.server.url}/blog/a-post`)
      expect(await axe(page)).toEqual([])
      await page.goto(`${site.server.url}/`)
      await page.getByRole('region', {name: 'Get new posts by email'}).waitFor()
      expect(await axe(page)).toEqual([])
      await page.goto(`${site.server.url}/subscribed`)
      expect(await axe(page)).toEqual([])
      expect(unexpected(problems)).toEqual([])
      await page.context().close()
    })
  }
})
