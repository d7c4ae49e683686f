import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {startAutoRedirects} from './autoRedirects.ts'

interface Redirect {
  from: string
  to: string
  permanent: boolean
  automatic: boolean
}

/** A redirect the site made itself, permanent. */
const made = (from: string, to: string): Redirect => ({from, to, permanent: true, automatic: true})

/** The redirects the lake holds, as a reader's client sees them. */
const redirects = (t: LakeUnderTest) =>
  t.anon.fetch<Redirect[]>(
    '*[_type == "redirect"] | order(from asc){from, to, permanent, automatic}',
  )

describe('the redirects the site makes when a slug changes', () => {
  let t: LakeUnderTest
  let auto: ReturnType<typeof startAutoRedirects>

  beforeAll(async () => {
    t = await startLakeUnderTest()
    auto = startAutoRedirects(t.lake)
    await t.owner
      .transaction()
      .create({_id: 'cat', _type: 'category', title: 'Trips', slug: {current: 'Trips'}})
      .create({_id: 'post', _type: 'post', title: 'One', slug: {current: 'one'}})
      .create({_id: 'drafts.other', _type: 'post', title: 'Draft', slug: {current: 'draft'}})
      .commit()
  })

  afterAll(() => {
    auto?.stop()
    return t?.stop()
  })

  /** The owner sets `id`'s slug (as the Studio's publish does), and the redirects are made. */
  async function setSlug(id: string, slug: string): Promise<void> {
    await t.owner
      .patch(id)
      .set({slug: {current: slug}})
      .commit()
    await auto.idle()
  }

  it('answers a published post’s old address with a 301 to the new one', async () => {
    await setSlug('post', 'two')
    expect(await redirects(t)).toEqual([made('/blog/one', '/blog/two')])
  })

  it('collapses a chain: every old address points at the newest, in one hop', async () => {
    await setSlug('post', 'three')
    expect(await redirects(t)).toEqual([
      made('/blog/one', '/blog/three'),
      made('/blog/two', '/blog/three'),
    ])
  })

  it('never loops: moving back to an old slug drops the redirect from it', async () => {
    await setSlug('post', 'one')
    expect(await redirects(t)).toEqual([
      made('/blog/three', '/blog/one'),
      made('/blog/two', '/blog/one'),
    ])
  })

  it('keeps a renamed category’s old tab address, and ignores drafts', async () => {
    await setSlug('cat', 'travel')
    await setSlug('drafts.other', 'draft-2')
    const tabs = (await redirects(t)).filter((r) => r.from.startsWith('/blog?'))
    expect(tabs).toEqual([made('/blog?category=Trips', '/blog?category=travel')])
    expect((await redirects(t)).some((r) => r.from.includes('draft'))).toBe(false)
  })
})
