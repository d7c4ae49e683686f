import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {feedPostsQuery, sitemapQuery} from '../../shared/siteQueries.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../test/support/lakeUnderTest.ts'

/** The discovery queries (web/queries.ts) against the lake, with a small inline dataset. */
let lake: LakeUnderTest
const body = [
  {
    _type: 'block',
    _key: 'b',
    style: 'normal',
    markDefs: [],
    children: [{_type: 'span', _key: 's', text: 'Hi.', marks: []}],
  },
]

beforeAll(async () => {
  lake = await startLakeUnderTest()
  await lake.owner
    .transaction()
    .create({
      _id: 'b-old',
      _type: 'post',
      title: 'Old',
      slug: {_type: 'slug', current: 'old'},
      date: '2023-01-01',
      category: 'General',
      body,
    })
    .create({
      _id: 'a-new',
      _type: 'post',
      title: 'New',
      slug: {_type: 'slug', current: 'new'},
      date: '2024-01-01',
      excerpt: 'E.',
      category: 'Fiction',
      body,
    })
    .create({
      _id: 'a-same-day',
      _type: 'post',
      title: 'Same day',
      slug: {_type: 'slug', current: 'same-day'},
      date: '2023-01-01',
      category: 'Kashmir',
    })
    .create({
      _id: 'no-slug',
      _type: 'post',
      title: 'No slug',
      date: '2025-01-01',
      category: 'General',
    })
    .create({
      _id: 'drafts.a-new',
      _type: 'post',
      title: 'New, edited',
      slug: {_type: 'slug', current: 'new'},
      date: '2024-01-01',
      category: 'Fiction',
    })
    .create({
      _id: 'drafts.only-draft',
      _type: 'post',
      title: 'Draft',
      slug: {_type: 'slug', current: 'draft'},
      date: '2026-01-01',
      category: 'General',
    })
    .create({_id: 'not-a-post', _type: 'page', slug: {_type: 'slug', current: 'page'}})
    .commit()
})

afterAll(async () => {
  await lake?.stop()
})

/** Drops the server-set timestamp, after checking there is one. */
function withoutUpdatedAt<T extends {_updatedAt: string}>(rows: T[]): Array<Omit<T, '_updatedAt'>> {
  return rows.map(({_updatedAt, ...rest}) => {
    expect(Number.isNaN(Date.parse(_updatedAt))).toBe(false)
    return rest
  })
}

describe('sitemapQuery', () => {
  it('returns every published post with a slug, newest first, ties by id; never drafts', async () => {
    const rows = await lake.anon
      .withConfig({perspective: 'published'})
      .fetch<Array<{slug: string; _updatedAt: string}>>(sitemapQuery)
    expect(withoutUpdatedAt(rows)).toEqual([{slug: 'new'}, {slug: 'same-day'}, {slug: 'old'}])
  })
})

describe('feedPostsQuery', () => {
  it('returns the newest $limit posts with everything a feed entry needs', async () => {
    const rows = await lake.anon
      .withConfig({perspective: 'published'})
      .fetch<Array<{_updatedAt: string}>>(feedPostsQuery, {limit: 2})
    expect(withoutUpdatedAt(rows)).toEqual([
      {
        _id: 'a-new',
        title: 'New',
        slug: 'new',
        date: '2024-01-01',
        excerpt: 'E.',
        category: 'Fiction',
        body,
      },
      {
        _id: 'a-same-day',
        title: 'Same day',
        slug: 'same-day',
        date: '2023-01-01',
        excerpt: null,
        category: 'Kashmir',
        body: null,
      },
    ])
  })
})
