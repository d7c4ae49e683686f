import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {startAutoRedirects} from './autoRedirects.ts'

interface Redirect {
  from: string
  to: string
  permanent: boolean
  automatic: boolean
}

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

  it('answers a published post’s old address with a 301 to the new one', async () => {
    await t.owner
      .patch('post')
      .set({slug: {current: 'two'}})
      .commit()
    await auto.idle()
    expect(await redirects(t)).toEqual([
      {from: '/blog/one', to: '/blog/two', permanent: true, automatic: true},
    ])
  })

  it('collapses a chain: every old address points at the newest, in one hop', async () => {
    await t.owner
      .patch('post')
      .set({slug: {current: 'three'}})
      .commit()
    await auto.idle()
    expect(await redirects(t)).toEqual([
      {from: '/blog/one', to: '/blog/three', permanent: true, automatic: true},
      {from: '/blog/two', to: '/blog/three', permanent: true, automatic: true},
    ])
  })

  it('never loops: moving back to an old slug drops the redirect from it', async () => {
    await t.owner
      .patch('post')
      .set({slug: {current: 'one'}})
      .commit()
    await auto.idle()
    expect(await redirects(t)).toEqual([
      {from: '/blog/three', to: '/blog/one', permanent: true, automatic: true},
      {from: '/blog/two', to: '/blog/one', permanent: true, automatic: true},
    ])
  })

  it('keeps a renamed category’s old tab address, and ignores drafts', async () => {
    await t.owner
      .patch('cat')
      .set({slug: {current: 'travel'}})
      .commit()
    await t.owner
      .patch('drafts.other')
      .set({slug: {current: 'draft-2'}})
      .commit()
    await auto.idle()
    const tabs = (await redirects(t)).filter((r) => r.from.startsWith('/blog?'))
    expect(tabs).toEqual([
      {from: '/blog?category=Trips', to: '/blog?category=travel', permanent: true, automatic: true},
    ])
    expect((await redirects(t)).some((r) => r.from.includes('draft'))).toBe(false)
  })
})
