import sharp from 'sharp'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {openPage, startSite, stopSite, unexpected, type TestServer} from './site.fixtures.ts'

/**
 * Issue 22 on the public site, with the seeded posts (content/posts/): covers, body figures,
 * card thumbnails, share cards and feeds, as Chromium loads them with no interaction.
 */

/** A phone: 390 CSS px wide at 1.75 device pixels per CSS pixel (Lighthouse's mobile DPR). */
const phone = {
  viewport: {width: 390, height: 844},
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
}

let site: {server: TestServer; browser: Browser}

beforeAll(async () => {
  site = await startSite({SEED: '1'})
})
afterAll(() => stopSite(site))

interface ImgFacts {
  alt: string | null
  width: number
  height: number
  srcset: string
  sizes: string
  loading: string | null
  fetchPriority: string | null
  currentSrc: string
  naturalWidth: number
  naturalHeight: number
  clientWidth: number
  background: string
}

function imgFacts(page: Page, selector: string): Promise<ImgFacts[]> {
  return page.$$eval(selector, (imgs) =>
    imgs.map((node) => {
      const img = node as HTMLImageElement
      return {
        alt: img.getAttribute('alt'),
        width: Number(img.getAttribute('width')),
        height: Number(img.getAttribute('height')),
        srcset: img.srcset,
        sizes: img.sizes,
        loading: img.getAttribute('loading'),
        fetchPriority: img.getAttribute('fetchpriority'),
        currentSrc: img.currentSrc,
        naturalWidth: img.naturalWidth,
        naturalHeight: img.naturalHeight,
        clientWidth: img.clientWidth,
        background: img.style.backgroundImage,
      }
    }),
  )
}

/** Opens `path` on a phone and records every response's type and the scripts asked for. */
async function visit(path: string) {
  const {page, problems} = await openPage(site.browser, phone)
  const types = new Map<string, string>()
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  page.on('response', (response) => {
    types.set(response.url(), response.headers()['content-type'] ?? '')
  })
  await page.goto(`${site.server.url}${path}`, {waitUntil: 'load'})
  return {page, problems, types, scripts}
}

describe('pictures in posts', () => {
  it('the post page: a sized, high-priority cover in AVIF at no more than 1.3× its pixels, and a lazy captioned figure', async () => {
    const {page, problems, types, scripts} = await visit('/blog/writing-through-a-srinagar-winter')
    const [cover] = await imgFacts(page, 'article > figure:first-of-type img')
    expect(cover).toMatchObject({
      alt: 'Pale blue mountains above a still lake at dawn, a shikara resting on the water',
      width: 720,
      height: 450,
      loading: 'eager',
      fetchPriority: 'high',
    })
    const candidates = cover.srcset.split(', ')
    expect(candidates.length).toBeGreaterThanOrEqual(3)
    expect(candidates.length).toBeLessThanOrEqual(5)
    expect(cover.sizes).toContain('42rem')
    expect(cover.background).toMatch(/^url\("data:image\/jpeg;base64,/)
    expect(cover.naturalWidth).toBeGreaterThan(0)
    expect(types.get(cover.currentSrc)).toBe('image/avif')
    // Downloaded pixels against displayed device pixels (issue 22: at most 1.3×).
    expect(cover.naturalWidth / (cover.clientWidth * phone.deviceScaleFactor)).toBeLessThanOrEqual(
      1.3,
    )
    const figures = await page.$$eval('article figure', (nodes) =>
      nodes.map((figure) => figure.querySelector('figcaption')?.textContent ?? null),
    )
    expect(figures).toEqual([
      'Dal Lake before sunrise, drawn from memory.',
      'A kangri: a clay bowl of embers in a wicker basket, carried under the pheran.',
    ])
    const [, inline] = await imgFacts(page, 'article figure img')
    expect(inline).toMatchObject({
      alt: 'A wicker kangri with a bent handle and glowing embers in its clay bowl',
      width: 720,
      height: 720,
      loading: 'lazy',
      fetchPriority: null,
      // A transparent PNG gets no placeholder behind it.
      background: '',
    })
    expect(scripts).toEqual([])
    expect(unexpected(problems)).toEqual([])
    await page.context().close()
  })

  it('the share card is a 1200×630 JPEG of the cover, named in og:image, Twitter and JSON-LD', async () => {
    const {page} = await visit('/blog/writing-through-a-srinagar-winter')
    const meta = (key: string) =>
      page.$eval(`meta[property="${key}"], meta[name="${key}"]`, (m) => m.getAttribute('content'))
    const url = (await meta('og:image')) ?? ''
    expect(url.startsWith(`${site.server.config.siteUrl}/images/scriptorium/production/`)).toBe(
      true,
    )
    expect(await meta('og:image:width')).toBe('1200')
    expect(await meta('og:image:height')).toBe('630')
    expect(await meta('og:image:alt')).toBe(
      'Pale blue mountains above a still lake at dawn, a shikara resting on the water',
    )
    expect(await meta('twitter:card')).toBe('summary_large_image')
    expect(await meta('twitter:image')).toBe(url)
    const jsonLd = await page.$eval('script[type="application/ld+json"]', (s) => s.textContent)
    const graph = (JSON.parse(jsonLd ?? '{}') as {'@graph': Array<{image?: string}>})['@graph']
    expect(graph[0].image).toBe(url)
    const res = await fetch(url.replace(site.server.config.siteUrl, site.server.url))
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({
      width: 1200,
      height: 630,
    })
    await page.context().close()
  })

  it('a cover cropped from a sideways (EXIF 6) phone photo has the crop’s shape on the page', async () => {
    const {page} = await visit('/blog/the-great-lakes-trek-slowly')
    const [cover] = await imgFacts(page, 'article > figure:first-of-type img')
    expect(cover.naturalWidth).toBeGreaterThan(cover.naturalHeight)
    expect(
      Math.abs(cover.width / cover.height - cover.naturalWidth / cover.naturalHeight),
    ).toBeLessThan(0.01)
    await page.context().close()
  })

  it('/blog: cards with a cover show a sized 16:9 thumbnail, lazy but for the first; nothing shifts as they load', async () => {
    const {page, scripts} = await visit('/blog')
    const cards = await page.$$eval('article', (nodes) =>
      nodes.map((card) => ({
        title: card.querySelector('h2')?.textContent ?? '',
        img: card.querySelector('img')
          ? {
              loading: card.querySelector('img')?.getAttribute('loading'),
              width: Number(card.querySelector('img')?.getAttribute('width')),
              height: Number(card.querySelector('img')?.getAttribute('height')),
              alt: card.querySelector('img')?.getAttribute('alt'),
            }
          : null,
      })),
    )
    expect(cards).toHaveLength(6)
    const withCover = cards.filter((card) => card.img)
    expect(withCover.map((card) => card.title)).toEqual([
      'Ghostwriting Without Losing Your Voice, or Theirs',
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ])
    // The first card's thumbnail is the phone's largest element: fetched at once; the rest lazily.
    for (const [index, {img}] of withCover.entries()) {
      expect(img).toMatchObject({loading: index === 0 ? 'eager' : 'lazy', width: 480, height: 270})
      expect(img?.alt).not.toBeNull()
    }
    await page.mouse.wheel(0, 3000)
    await page.waitForFunction(() =>
      [...document.querySelectorAll('article img')].every(
        (img) => (img as HTMLImageElement).complete,
      ),
    )
    const shift = await page.evaluate(() =>
      performance
        .getEntriesByType('layout-shift')
        .reduce((sum, entry) => sum + (entry as unknown as {value: number}).value, 0),
    )
    expect(shift).toBe(0)
    expect(scripts).toEqual([])
    await page.context().close()
  })

  it('the RSS item carries the body image as an absolute <img> and the cover as its enclosure', async () => {
    const xml = await (await fetch(`${site.server.url}/rss.xml`)).text()
    const item = xml
      .split('<item>')
      .find((part) => part.includes('/blog/writing-through-a-srinagar-winter</link>'))
    const origin = site.server.config.siteUrl
    expect(item).toMatch(
      new RegExp(
        `<img src="${origin}/images/scriptorium/production/[0-9a-f]{40}-800x800\\.png\\?w=800&amp;fit=max" alt="A wicker kangri`,
      ),
    )
    // The enclosure's length is the cover variant's real size in bytes (issue #35), never 0.
    const enclosure = new RegExp(
      `<enclosure length="(\\d+)" type="image/jpeg" url="${origin}/images/scriptorium/production/[0-9a-f]{40}-1600x1000\\.jpg/cover\\.jpeg\\?`,
    ).exec(item ?? '')
    expect(enclosure).not.toBeNull()
    expect(Number(enclosure?.[1])).toBeGreaterThan(1000)
  })
})
