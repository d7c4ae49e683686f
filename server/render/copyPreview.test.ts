import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest} from '../../test/support/lakeUnderTest.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import {loadSiteBundle, type SiteBundle} from './bundle.ts'

// Issue #37: the owner's portrait and a client's photo are shown where the site shows them, with
// alt text or its fallback; in preview, each word of the copy documents opens its field in the
// Studio (Presentation's click-to-edit), and the public pages carry nothing of that. The built
// site (npm run build) renders a real lake's content, seeded as a fresh start is.
let server: Awaited<ReturnType<typeof startLakeUnderTest>>
let bundle: SiteBundle
let portraitId: string
let photoId: string

const png = (r: number) =>
  sharp({create: {width: 900, height: 700, channels: 3, background: {r, g: 90, b: 140}}})
    .png()
    .toBuffer()
const image = (id: string, alt?: string) => ({
  _type: 'image',
  asset: {_type: 'reference', _ref: id},
  ...(alt === undefined ? {} : {alt}),
})

beforeAll(async () => {
  server = await startLakeUnderTest({seed: true})
  const loaded = await loadSiteBundle('dist')
  if (!loaded) throw new Error('the site is not built: npm run build')
  bundle = loaded
  portraitId = (await server.owner.assets.upload('image', await png(200), {filename: 'me.png'}))._id
  photoId = (await server.owner.assets.upload('image', await png(20), {filename: 'ruth.png'}))._id
  await server.owner
    .transaction()
    .patch('siteSettings', (p) =>
      p.set({ownerName: 'Ada Writer', portrait: image(portraitId, 'Ada at her desk')}),
    )
    .createOrReplace({
      _id: 'testimonial-ruth',
      _type: 'testimonial',
      quote: 'She found the book inside my draft.',
      name: 'Ruth Kaur',
      role: 'novelist',
      photo: image(photoId),
      order: -1,
    })
    .commit()
})
afterAll(() => server?.stop())

async function render(path: string, preview = false): Promise<string> {
  const rendered = await bundle.renderer.render(new Request(new URL(path, server.url)), {
    site: resolveSiteConfig({siteUrl: server.url}),
    contentOrigin: server.url,
    assets: bundle.assets,
    ...(preview
      ? {preview: {headers: {authorization: `Bearer ${server.owner.config().token}`}}}
      : {}),
  })
  if (rendered instanceof Response) throw new Error(`${path}: ${rendered.status}`)
  return rendered.html
}

const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? []
const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]

/** The `data-sanity` value of one field (web/preview/sanityNode.ts). */
const node = (type: string, id: string, path: string) =>
  `data-sanity="id=${id};type=${type};path=${path};base=%2Fstudio"`

describe("the owner's portrait and the clients' photos", () => {
  it('Home shows the portrait in its hero, with her alt text, sized and fetched at once', async () => {
    const html = await render('/')
    const [portrait] = imgTags(html).filter((tag) => tag.includes(portraitId.split('-')[1]))
    expect(portrait).toBeDefined()
    expect(attr(portrait, 'alt')).toBe('Ada at her desk')
    expect(Number(attr(portrait, 'width'))).toBeGreaterThan(0)
    expect(attr(portrait, 'height')).toBe(attr(portrait, 'width'))
    expect(attr(portrait, 'loading')).toBe('eager')
    // Before the intro: in the first screen.
    expect(html.indexOf(portrait)).toBeLessThan(html.indexOf('<h1'))
  })

  it('a portrait without alt text is named after her', async () => {
    await server.owner.patch('siteSettings').unset(['portrait.alt']).commit()
    try {
      const html = await render('/')
      const [portrait] = imgTags(html).filter((tag) => tag.includes(portraitId.split('-')[1]))
      expect(attr(portrait, 'alt')).toBe('Portrait of Ada Writer')
    } finally {
      await server.owner.patch('siteSettings').set({'portrait.alt': 'Ada at her desk'}).commit()
    }
  })

  it('a testimonial shows its photo, lazily, beside the name; the page keeps working without one', async () => {
    for (const path of ['/', '/testimonials']) {
      const html = await render(path)
      expect(html, path).toContain('She found the book inside my draft.')
      const photos = imgTags(html).filter((tag) => tag.includes(photoId.split('-')[1]))
      expect(photos.length, path).toBe(1)
      expect(attr(photos[0], 'alt'), path).toBe('')
      expect(attr(photos[0], 'loading'), path).toBe('lazy')
    }
    // Its asset deleted (the photo's reference dropped first, as the Studio does).
    await server.owner.patch('testimonial-ruth').unset(['photo']).commit()
    const html = await render('/testimonials')
    expect(html).toContain('Ruth Kaur, novelist')
    expect(imgTags(html).filter((tag) => tag.includes(photoId.split('-')[1]))).toEqual([])
  })
})

describe("the copy documents in preview (Presentation's click-to-edit)", () => {
  it("Home's words, the settings and the testimonials open their fields", async () => {
    const html = await render('/', true)
    for (const expected of [
      node('homePage', 'homePage', 'intro'),
      node('homePage', 'homePage', 'blogButton'),
      node('homePage', 'homePage', 'latestHeading'),
      node('homePage', 'homePage', 'voicesHeading'),
      node('siteSettings', 'siteSettings', 'ownerName'),
      node('siteSettings', 'siteSettings', 'portrait'),
      node('siteSettings', 'siteSettings', 'footerModals.privacy.paragraphs'),
      node('siteSettings', 'siteSettings', 'footerModals.me.label'),
      node('testimonial', 'testimonial-ruth', 'quote'),
    ])
      expect(html).toContain(expected)
  })

  it("the Services lists, the edited books and the blog's tabs open theirs", async () => {
    const services = await render('/services', true)
    for (const list of ['writingServices', 'editingServices', 'howIWork', 'blogSamples'])
      expect(services).toContain(node('servicesPage', 'servicesPage', list))
    expect(await render('/testimonials', true)).toContain(
      node('servicesPage', 'servicesPage', 'editedBooks'),
    )
    expect(await render('/blog', true)).toContain(node('category', 'category-fiction', 'title'))
  })

  it('a draft shows in preview before it is published, never on the public page', async () => {
    await server.owner.createOrReplace({
      ...(await server.owner.getDocument('homePage')),
      _id: 'drafts.homePage',
      _type: 'homePage',
      intro: 'A draft intro.',
    })
    expect(await render('/', true)).toContain('A draft intro.')
    const html = await render('/')
    expect(html).not.toContain('A draft intro.')
    expect(html).not.toContain('data-sanity=')
  })
})

describe('bad input renders a sensible page, never a 500 nor a redirect elsewhere', () => {
  /** What a reader gets: the status, and where a redirect points. */
  async function answer(path: string): Promise<{status: number; location: string | null}> {
    const rendered = await bundle.renderer.render(new Request(new URL(path, server.url)), {
      site: resolveSiteConfig({siteUrl: server.url}),
      contentOrigin: server.url,
      assets: bundle.assets,
    })
    return rendered instanceof Response
      ? {status: rendered.status, location: rendered.headers.get('location')}
      : {status: rendered.status, location: null}
  }

  it('a category with no posts has its tab, and says so', async () => {
    await server.owner.createOrReplace({
      _id: 'category-poetry',
      _type: 'category',
      title: 'Poetry',
      slug: {_type: 'slug', current: 'poetry'},
      order: 9,
    })
    expect(await render('/blog')).toContain('href="/blog?category=poetry"')
    const html = await render('/blog?category=poetry')
    expect(html).toContain('No posts here yet.')
  })

  it('a deleted testimonial is gone from Home and Testimonials, which still render', async () => {
    await server.owner.delete('testimonial-ruth')
    for (const path of ['/', '/testimonials']) {
      const html = await render(path)
      expect(html, path).not.toContain('Ruth Kaur')
      expect(html, path).toContain('Aamir K., novelist')
    }
  })

  it('no query parameter makes the site redirect to another origin', async () => {
    await server.owner.create({_type: 'redirect', from: '/go', to: '/blog', permanent: true})
    expect(await answer('/go')).toEqual({status: 301, location: '/blog'})
    for (const path of [
      '/go?to=https://evil.example/',
      '/?redirect=https://evil.example/',
      '/blog?next=//evil.example/',
      '/blog?category=%2F%2Fevil.example',
      '/blog/headings-are-promises?url=https://evil.example/',
    ]) {
      const {status, location} = await answer(path)
      expect(status, path).toBeLessThan(500)
      if (location !== null) expect(new URL(location, server.url).origin, path).toBe(server.url)
    }
  })
})
