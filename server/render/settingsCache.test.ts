import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startSiteUnderTest, type SiteUnderTest} from '../../test/support/siteUnderTest.ts'

// Issue #37: a settings change drops every cached page through the live events (one tag); a
// testimonial's change drops only the pages that show testimonials. The built site (npm run
// build) renders the seeded content of a real lake; edits go through @sanity/client.
let site: SiteUnderTest
let owner: SanityClient
/** The tags of every live message, in order. */
const messages: string[][] = []

beforeAll(async () => {
  site = await startSiteUnderTest({
    seed: true,
    beforeEvents: (events) =>
      events.onChange((change) => {
        if (change.kind === 'tags') messages.push(change.tags)
      }),
  })
  ;({owner} = site)
})
afterAll(() => site.stop())

const get = (path: string) => site.get(path)

const withTestimonials = ['/', '/testimonials']
const withoutTestimonials = [
  '/blog',
  '/blog?category=fiction',
  '/blog/ghostwriting-without-losing-your-voice',
  '/services',
  '/contact',
]
const everyPage = [...withTestimonials, ...withoutTestimonials]

/** Renders each page until the cache holds it. */
async function warm(paths: string[]) {
  for (const path of paths) {
    await (await get(path)).text()
    expect((await get(path)).headers.get('x-cache'), path).toBe('HIT')
  }
}

/** Commits through the client and waits for its live message; returns the message's tags. */
async function published(commit: () => Promise<unknown>): Promise<string[]> {
  const before = messages.length
  await commit()
  await vi.waitFor(() => expect(messages.length).toBe(before + 1), {timeout: 15_000})
  return messages[before]
}

/**
 * The document-type tags of a message (server/lake/syncTags.ts); `s1:any`, which every public
 * commit fires, drops only whole-dataset readers (search), none of these pages.
 */
const typeTags = (tags: string[]) => tags.filter((tag) => tag.startsWith('s1:t:'))

describe('the render cache and the copy documents', () => {
  it("a testimonial's change drops the pages that show testimonials, and only those", async () => {
    await warm(everyPage)
    const tags = await published(() =>
      owner.patch('testimonial-1').set({quote: 'A quote, edited in the Studio.'}).commit(),
    )
    expect(typeTags(tags)).toEqual(['s1:t:testimonial'])
    for (const path of withTestimonials) {
      const page = await get(path)
      expect(page.headers.get('x-cache'), path).toBe('MISS')
      expect(await page.text(), path).toContain('A quote, edited in the Studio.')
    }
    for (const path of withoutTestimonials)
      expect((await get(path)).headers.get('x-cache'), path).toBe('HIT')
  })

  it('a settings change drops every page, through one tag', async () => {
    await warm(everyPage)
    const tags = await published(() =>
      owner.patch('siteSettings').set({ownerName: 'Ada Writer'}).commit(),
    )
    expect(typeTags(tags)).toEqual(['s1:t:siteSettings'])
    for (const path of everyPage) {
      const page = await get(path)
      expect(page.headers.get('x-cache'), path).toBe('MISS')
      expect(await page.text(), path).toContain('Ada Writer')
    }
  })

  it('a draft of the settings drops nothing', async () => {
    await warm(everyPage)
    await owner.createOrReplace({_id: 'drafts.siteSettings', _type: 'siteSettings', ownerName: 'D'})
    // A published change after it: once its message is in, the draft's would have been too.
    await published(() => owner.patch('testimonial-2').set({name: 'Mehreen S.'}).commit())
    for (const path of withoutTestimonials)
      expect((await get(path)).headers.get('x-cache'), path).toBe('HIT')
  })
})
