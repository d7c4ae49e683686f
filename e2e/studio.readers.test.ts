import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Subscribers} from '../server/newsletter/subscribers.ts'
import {post, postTitle, userAgents} from '../server/stats/testing.ts'
import {goInStudio, logIn, startStudio, type StudioUnderTest} from './studio-driver.ts'

/**
 * Issue #38's owner view: readers come over real HTTP (a desktop, a phone, referrers, a
 * campaign with markup in it, a broken link), then the Studio's Readers tool shows their numbers
 * in the chart and the tables, downloads a table as CSV, and logs no console error.
 */
const forgedCampaign = '<b>launch</b>'

/** Two readers (addresses from RFC 5737, trusted as X-Forwarded-For from loopback). */
const views = [
  {
    path: post,
    ua: userAgents.windowsChrome,
    from: '203.0.113.9',
    referer: 'https://www.google.com/',
  },
  {
    path: `/services?utm_source=newsletter&utm_medium=email&utm_campaign=${encodeURIComponent(forgedCampaign)}`,
    ua: userAgents.windowsChrome,
    from: '203.0.113.9',
  },
  {
    path: '/',
    ua: userAgents.iPhoneSafari,
    from: '198.51.100.7',
    referer: 'https://news.ycombinator.com/item?id=1',
  },
  {path: '/contact', ua: userAgents.iPhoneSafari, from: '198.51.100.7'},
  {path: '/no-such-page', ua: userAgents.iPhoneSafari, from: '198.51.100.7'},
]

describe("the Studio's Readers tool", () => {
  let running: StudioUnderTest
  const statuses: number[] = []

  beforeAll(async () => {
    running = await startStudio({TRUST_PROXY: 'loopback'})
    for (const view of views) {
      const response = await fetch(`${running.server.url}${view.path}`, {
        headers: {
          'user-agent': view.ua,
          'x-forwarded-for': view.from,
          ...(view.referer ? {referer: view.referer} : {}),
        },
      })
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    // The newsletter as it stores its readers: two confirm, one of them leaves, one is pending.
    const lake = running.server.lake
    if (!lake) throw new Error('the Studio test needs the local lake')
    const subscribers = new Subscribers(lake)
    const now = new Date()
    for (const name of ['ada', 'bea', 'cid']) {
      const outcome = await subscribers.subscribe(`${name}@example.com`, name, now)
      if (outcome.mail === 'confirm' && name !== 'cid')
        await subscribers.confirm(name, outcome.subscriber.confirmNonce, now)
    }
    await subscribers.unsubscribe('bea', now)
  })
  afterAll(async () => {
    await running?.stop()
  })

  it('served the readers their pages, and the broken link a 404', () => {
    expect(statuses).toEqual([200, 200, 200, 200, 404])
  })

  it("shows the readers' numbers in the chart and the tables, with no console error", async () => {
    const {server, page, watch} = running
    await logIn(page, server.url, server.lake?.token ?? '')
    await goInStudio(page, '/studio/readers')

    // The tables are read after the server has written its batch (the route flushes first).
    const totals = page.getByTestId('readers-totals')
    await totals
      .getByText('2 visitors · 4 page views in the last 30 days')
      .waitFor({timeout: 60_000})
    expect(await page.getByTestId('readers-live').innerText()).toBe('2')

    const today = new Date().toISOString().slice(0, 10)
    // The chart: hovering today's point (the right end) shows its figures.
    const chart = page.locator('.recharts-wrapper').first()
    const box = await chart.boundingBox()
    if (!box) throw new Error('the chart has no box')
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3)
    await page.mouse.move(box.x + box.width - 12, box.y + box.height / 3, {steps: 5})
    const tooltip = chart.locator('.recharts-tooltip-wrapper')
    await tooltip.getByText(today).waitFor({timeout: 30_000})
    expect((await tooltip.innerText()).split('\n').filter(Boolean)).toEqual([
      today,
      'Page views : 4',
      'Visitors : 2',
    ])
    // The same numbers as a table, for anyone who does not read the chart.
    await page.locator('summary', {hasText: 'The same, as a table'}).first().click()
    const row = page.getByRole('table', {name: 'Per day'}).getByRole('row').filter({hasText: today})
    expect((await row.innerText()).split(/\s+/)).toEqual([today, '2', '4'])

    const table = (title: string) => page.getByRole('table', {name: title})
    expect(await table('Top pages').innerText()).toContain(postTitle)
    expect(await table('Top pages').innerText()).toContain(post)
    for (const [title, values] of [
      ['Referrers', ['google.com', 'news.ycombinator.com', 'direct']],
      ['Devices', ['desktop', 'phone']],
      ['Browsers', ['Chrome', 'Safari']],
      ['Not found', ['/no-such-page']],
    ] as const)
      for (const value of values) expect(await table(title).innerText()).toContain(value)
    // A forged campaign is shown as the characters it is, never as markup.
    const campaigns = table('Campaigns')
    expect(await campaigns.innerText()).toContain(`newsletter / email / ${forgedCampaign}`)
    expect(await campaigns.locator('b').count()).toBe(0)
    expect(await page.getByText('Nothing in the last 30 days.').count()).toBe(1) // feed readers

    // The newsletter: one active subscriber (two confirmed this week, one left), the same as a table.
    const monday = new Date()
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7))
    const week = monday.toISOString().slice(0, 10)
    expect(await page.getByTestId('readers-newsletter-totals').innerText()).toMatch(
      /^1 active subscriber · 2 confirmed, 1 unsubscribed since \d{4}-\d{2}-\d{2}$/,
    )
    await page.locator('summary', {hasText: 'The same, as a table'}).nth(1).click()
    const newsletterRow = page
      .getByRole('table', {name: 'Newsletter'})
      .getByRole('row')
      .filter({hasText: week})
    expect((await newsletterRow.innerText()).split(/\s+/)).toEqual([week, '1', '2', '1'])

    // A table as the server's CSV, fetched with the Studio session.
    const download = page.waitForEvent('download')
    await page.getByRole('button', {name: 'Download Top pages as CSV'}).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('pages-30d.csv')
    const stream = await file.createReadStream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const csv = Buffer.concat(chunks).toString('utf8')
    expect(csv.split('\r\n')[0]).toBe('path,title,visitors,pageviews')
    expect(csv).toContain(`"${post}","${postTitle}","1","1"`)

    // The period switch asks again for 7 days.
    await page.getByRole('tab', {name: '7 days'}).click()
    await totals
      .getByText('2 visitors · 4 page views in the last 7 days')
      .waitFor({timeout: 30_000})
    expect(await page.getByRole('tab', {name: '7 days'}).getAttribute('aria-selected')).toBe('true')

    expect(watch.consoleErrors).toEqual([])
    expect(watch.foreignRequests).toEqual([])
  })

  it("shows a post's own views of the last 30 days in its document", async () => {
    const {server, page, watch} = running
    const id = await server.lake?.query<string>(
      '*[_type == "post" && slug.current == $slug][0]._id',
      {slug: post.replace('/blog/', '')},
      {authenticated: true},
    )
    if (!id) throw new Error('the scripted post is not in the lake')
    await goInStudio(page, `/studio/structure/posts;${id}`)
    await page.getByRole('tab', {name: 'Readers'}).click()
    await page
      .getByTestId('post-readers-totals')
      .getByText('1 view · 1 visitor in the last 30 days')
      .waitFor({timeout: 60_000})
    expect(watch.consoleErrors).toEqual([])
  })
})
