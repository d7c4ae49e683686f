import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSiteUnderTest, type SiteUnderTest} from '../../test/support/siteUnderTest.ts'

// Issue #37: the settings' share image, portrait and social links are what machines read of
// the site (Open Graph, JSON-LD). The built site (npm run build) renders a real lake's content.
let site: SiteUnderTest
/** The hash part of the uploaded assets' ids (what their addresses carry). */
let shareHash: string
let portraitHash: string

async function png(r: number) {
  return sharp({create: {width: 1600, height: 1000, channels: 3, background: {r, g: 90, b: 140}}})
    .png()
    .toBuffer()
}

beforeAll(async () => {
  site = await startSiteUnderTest({seed: true})
  const share = await site.owner.assets.upload('image', await png(10), {filename: 'share.png'})
  const portrait = await site.owner.assets.upload('image', await png(200), {filename: 'me.png'})
  shareHash = share._id.split('-')[1]
  portraitHash = portrait._id.split('-')[1]
  const image = (id: string, alt: string) => ({
    _type: 'image',
    asset: {_type: 'reference', _ref: id},
    alt,
  })
  await site.owner
    .patch('siteSettings')
    .set({
      ownerName: 'Ada Writer',
      shareImage: image(share._id, 'A desk by a window'),
      portrait: image(portrait._id, 'Ada at her desk'),
      socialLinks: [
        {_key: 'm', _type: 'link', label: 'Mastodon', url: 'https://social.example/@ada'},
      ],
    })
    .commit()
})
afterAll(() => site.stop())

const page = async (path: string) => (await site.get(path)).text()

const meta = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1]

function jsonLdNodes(html: string): Map<string, Record<string, unknown>> {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
  return new Map(
    scripts.flatMap(([, json]) =>
      JSON.parse(json)['@graph'].map((node: Record<string, unknown>) => [node['@type'], node]),
    ),
  )
}

describe("the settings' images and links, as machines read the site", () => {
  it('every page without a picture of its own shares the share image, with its alt text', async () => {
    for (const path of ['/', '/contact', '/blog']) {
      const html = await page(path)
      expect(meta(html, 'og:image'), path).toContain(shareHash)
      expect(meta(html, 'og:image:alt'), path).toBe('A desk by a window')
      expect(meta(html, 'og:image:width'), path).toBe('1200')
    }
  })

  it("Home's JSON-LD names the owner with her portrait and her profiles", async () => {
    const nodes = jsonLdNodes(await page('/'))
    const person = nodes.get('Person')
    expect(person).toMatchObject({name: 'Ada Writer', sameAs: ['https://social.example/@ada']})
    expect(person?.image).toContain(portraitHash)
    expect(nodes.get('ProfessionalService')?.image).toContain(shareHash)
  })
})
