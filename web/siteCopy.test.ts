import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSiteUnderTest, type SiteUnderTest} from '../test/support/siteUnderTest.ts'
import {homeIntro} from './content/site.ts'

/**
 * The site's copy as documents, as the site renders them from the lake (test/support/siteUnderTest.ts): what the owner publishes shows on the
 * pages, and what is missing or half-written falls back to today's copy, never a 500.
 */
describe('the site reading its copy from the lake', () => {
  let site: SiteUnderTest
  /** The page as drawn (the hydration payload after it carries the raw loader data). */
  const page = async (path: string) => {
    const response = await site.get(path)
    const html = (await response.text()).split('id="site-payload"')[0]
    return {status: response.status, html}
  }

  beforeAll(async () => {
    site = await startSiteUnderTest()
  })

  afterAll(() => site?.stop())

  it('shows what the owner published: her name, the intro, a new service and testimonial, a new tab', async () => {
    await site.lake.lake.mutate([
      {create: {_id: 'siteSettings', _type: 'siteSettings', ownerName: 'Asha Rao'}},
      {create: {_id: 'homePage', _type: 'homePage', intro: 'Words, carefully.'}},
      {
        create: {
          _id: 'servicesPage',
          _type: 'servicesPage',
          writingServices: ['Speeches', 'Ghostwriting'],
        },
      },
      {create: {_type: 'testimonial', quote: 'Superb.', name: 'Nadia', role: 'poet', order: 1}},
      {create: {_type: 'category', title: 'Travel', slug: {current: 'travel'}, order: 9}},
    ])
    const home = await page('/')
    expect(home.status).toBe(200)
    expect(home.html).toContain('Asha Rao')
    expect(home.html).toContain('Words, carefully.')
    expect(home.html).toContain('Superb.')
    expect(home.html).toContain('Nadia, poet')
    const services = await page('/services')
    expect(services.html).toMatch(/<li>Speeches<\/li>\s*<li>Ghostwriting<\/li>/)
    expect((await page('/blog')).html).toContain('href="/blog?category=travel"')
    const travel = await page('/blog?category=travel')
    expect(travel.status).toBe(200)
    expect(travel.html).toContain('Blog: Travel')
  })

  it('falls back to today’s copy for an empty intro, half-written testimonials and settings', async () => {
    await site.lake.lake.mutate([
      {patch: {id: 'homePage', set: {intro: '   '}}},
      {delete: {query: '*[_type == "testimonial"]'}},
      {create: {_type: 'testimonial', quote: '', name: 'No quote'}},
      {patch: {id: 'siteSettings', set: {ownerName: '', footerModals: {me: {paragraphs: []}}}}},
    ])
    const home = await page('/')
    expect(home.status).toBe(200)
    expect(home.html).toContain(homeIntro)
    expect(home.html).toContain('Zoya Mir')
    expect(home.html).not.toContain('No quote')
    expect(home.html).toContain('About me')
    expect((await page('/testimonials')).status).toBe(200)
  })
})
