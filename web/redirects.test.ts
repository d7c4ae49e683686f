import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startSiteUnderTest, type SiteUnderTest} from '../test/support/siteUnderTest.ts'

/**
 * The site answering moved addresses: the lake, the redirects the content process makes on a slug
 * change, the pages' loaders and the render cache (test/support/siteUnderTest.ts).
 */
describe('redirects on the public site', () => {
  let site: SiteUnderTest

  /**
   * Sets `id`'s slug, and resolves once a commit stores a redirect (the site makes it right after
   * the move).
   */
  async function setSlug(id: string, slug: string): Promise<void> {
    const stored = new Promise<void>((resolve) => {
      const stop = site.lake.lake.onCommit((tx) => {
        if (tx.changes.some((c) => c.after?._type === 'redirect')) {
          stop()
          resolve()
        }
      })
    })
    await site.lake.lake.mutate([{patch: {id, set: {slug: {current: slug}}}}])
    await stored
  }

  const get = (path: string) => site.get(path)

  beforeAll(async () => {
    site = await startSiteUnderTest()
    await site.lake.lake.mutate([
      {create: {_id: 'cat', _type: 'category', title: 'Trips', slug: {current: 'Trips'}}},
      {
        create: {
          _id: 'post',
          _type: 'post',
          title: 'One',
          slug: {current: 'one'},
          date: '2024-01-01',
          category: {_type: 'reference', _ref: 'cat'},
        },
      },
    ])
  })

  afterAll(() => site?.stop())

  it('a published post whose slug changed: the old address answers 301 to the new one', async () => {
    expect((await get('/blog/one')).status).toBe(200)
    await setSlug('post', 'two')
    const moved = await get('/blog/one')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe('/blog/two')
    expect((await get('/blog/two')).status).toBe(200)
    // A query parameter never chooses the target.
    expect((await get('/blog/one?to=https://evil.example')).headers.get('location')).toBe(
      '/blog/two',
    )
  })

  it('a renamed category keeps its old tab address', async () => {
    await setSlug('cat', 'travel')
    const moved = await get('/blog?category=Trips')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe('/blog?category=travel')
  })

  it('the owner’s redirects: 302 when not permanent, another site only when marked external', async () => {
    await site.lake.lake.mutate([
      {create: {_type: 'redirect', from: '/hello', to: '/blog', permanent: false}},
      {create: {_type: 'redirect', from: '/samples', to: 'https://example.com/s', external: true}},
      {create: {_type: 'redirect', from: '/unmarked', to: 'https://evil.example/'}},
      {create: {_type: 'redirect', from: '/sneaky', to: '//evil.example/'}},
    ])
    const hello = await get('/hello')
    expect([hello.status, hello.headers.get('location')]).toEqual([302, '/blog'])
    const samples = await get('/samples')
    expect([samples.status, samples.headers.get('location')]).toEqual([
      301,
      'https://example.com/s',
    ])
    expect((await get('/unmarked')).status).toBe(404)
    expect((await get('/sneaky')).status).toBe(404)
  })
})
