import type {SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localClient} from '../../../test/support/localClient.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {internalHeaders} from './internal.ts'
import {postListQuery, searchQuery} from '../../../shared/siteQueries.ts'

// The site's reads in one process (siteQuery.ts) against the same reads over HTTP, as a site
// process makes them: same answers, same tags, published documents only.

let t: LakeUnderTest
/** The site's own client over HTTP, with the lake's internal credential (server/start.ts). */
let overHttp: SanityClient

beforeAll(async () => {
  t = await startLakeUnderTest({seed: true})
  overHttp = localClient(t.url, {
    useCdn: true,
    headers: internalHeaders(t.lake),
  })
})
afterAll(() => t.stop())

const viaHttp = async (query: string, params: Record<string, unknown>) => {
  const {result, syncTags} = await overHttp.fetch<unknown>(query, params, {filterResponse: false})
  return {result, syncTags}
}

describe('the site reading its own lake in process', () => {
  it('answers the site queries exactly as the query API does over HTTP, sync tags included', async () => {
    const asked: Array<[string, Record<string, unknown>]> = [
      [postListQuery, {start: 0, end: 6}],
      [searchQuery, {q: 'editing', start: 0, end: 6}],
      ['count(*[_type == "post"])', {}],
    ]
    for (const [query, params] of asked) {
      const inProcess = await t.siteQuery(query, params)
      expect({result: inProcess.result, syncTags: inProcess.syncTags}).toEqual(
        await viaHttp(query, params),
      )
    }
    const posts = await t.siteQuery(postListQuery, {start: 0, end: 6})
    expect(Array.isArray(posts.result) && posts.result.length).toBeGreaterThan(0)
  })

  it('never shows a draft, and sees a publish at once', async () => {
    const query = '*[_id in ["site-read", "drafts.site-read"]]{_id, title}'
    await t.owner.create({_id: 'drafts.site-read', _type: 'post', title: 'Draft only'})
    expect((await t.siteQuery(query, {})).result).toEqual([])
    expect((await t.siteQuery('count(*[_id in path("drafts.**")])', {})).result).toBe(0)
    await t.owner.createOrReplace({_id: 'site-read', _type: 'post', title: 'Published'})
    expect((await t.siteQuery(query, {})).result).toEqual([{_id: 'site-read', title: 'Published'}])
    await t.owner.patch('site-read').set({title: 'Edited'}).commit()
    expect((await t.siteQuery(query, {})).result).toEqual([{_id: 'site-read', title: 'Edited'}])
  })

  it('refuses a bad query with the status @sanity/client would report', async () => {
    await expect(t.siteQuery('*[_type == ', {})).rejects.toMatchObject({statusCode: 400})
    await expect(t.siteQuery('*[_type == $missing]', {})).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('$missing'),
    })
  })
})
