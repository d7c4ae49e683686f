import {describe, expect, it} from 'vitest'
import {evaluateJson, parseQuery} from '../groq.ts'
import {searchQuery} from '../../../shared/siteQueries.ts'
import type {Doc} from '../types.ts'

/**
 * A search's page keeps each card's costly attributes per document version (documentMemo.ts).
 * Its answers must be groq-js's own: the same projection over a filter without `text::query()`
 * (every post here has the searched word in its title, so both select the same posts) is
 * evaluated by groq-js alone and compared, before and after documents change.
 */

function block(key: string, text: string): Record<string, unknown> {
  return {
    _type: 'block',
    _key: key,
    style: 'normal',
    children: [{_type: 'span', _key: `${key}s`, text, marks: []}],
    markDefs: [],
  }
}

function post(n: number, body: unknown): Doc {
  return {
    _id: `post-${n}`,
    _type: 'post',
    _rev: 'r1',
    _createdAt: '2026-01-01T00:00:00Z',
    _updatedAt: '2026-01-01T00:00:00Z',
    title: `Common title ${n}`,
    slug: {_type: 'slug', current: `post-${n}`},
    date: `2026-01-${String(10 + n).padStart(2, '0')}`,
    // A stored `_score`, which `score()` adds to in its copies.
    ...(n === 2 ? {_score: 3} : {}),
    body,
    mainImage: {_type: 'image', asset: {_type: 'reference', _ref: `image-${n % 2}`}},
  }
}

const assets: Doc[] = [0, 1].map((n) => ({
  _id: `image-${n}`,
  _type: 'sanity.imageAsset',
  _rev: 'r1',
  _createdAt: '2026-01-01T00:00:00Z',
  _updatedAt: '2026-01-01T00:00:00Z',
  size: 100 + n,
}))

const bodies: unknown[] = [
  [block('a', 'one two  three'), block('b', ' four ')],
  [],
  undefined,
  [block('a', ''), {_type: 'image', _key: 'i'}, block('b', 'déjà vu, again')],
  'not an array',
  [block('a', 'x '.repeat(500))],
]

/** Attributes that are memoized (aggregates of the document's content) and some that are not. */
const attributes = [
  `"words": math::sum(body[_type == "block"]{"n": count(string::split(pt::text(@), " ")[@ != ""])}.n)`,
  `"blocks": count(body[_type == "block"])`,
  `"longest": math::max(body[]{"n": length(pt::text(@))}.n)`,
  `"scored": count(body[_score > 0])`,
  `"own": count(*[_id == ^._id])`,
  `"title": title`,
  // A dereference outside the memo, answered from the view's documents by id.
  `"image": mainImage.asset->{_id, size}`,
]

const projection = `{_id, ${attributes.join(', ')}}`
// `score()` hands the projection copies of the view's documents (nativePipeline.ts).
const memoized = `*[_type == "post" && title match text::query($q)] | score(title match text::query($q)) | order(_id) [0...10] ${projection}`
const plain = `*[_type == "post"] | order(_id) [0...10] ${projection}`

async function answer(query: string, docs: Doc[]): Promise<unknown> {
  const params = {q: 'common'}
  return JSON.parse(
    await evaluateJson(parseQuery(query, params), docs, params, {maxResultBytes: 1_000_000}),
  )
}

describe('the per-document memo of a search page', () => {
  it("answers groq-js's values, again from the memo, and afresh for a changed document", async () => {
    const docs = [...bodies.map((body, n) => post(n, body)), ...assets]
    const expected = await answer(plain, docs)
    expect(JSON.stringify(expected)).toContain('"image":{"_id":"image-1","size":101}')
    expect(await answer(memoized, docs)).toEqual(expected)
    expect(await answer(memoized, docs)).toEqual(expected)

    // A new view in which one document is a new object (as a worker's replica after a patch).
    const changed = docs.map((doc) =>
      doc._id === 'post-0' ? {...doc, body: [block('a', 'now five words are here')]} : doc,
    )
    const after = await answer(plain, changed)
    expect(after).not.toEqual(expected)
    expect(await answer(memoized, changed)).toEqual(after)
    expect(await answer(memoized, docs)).toEqual(expected)
  })

  it("gives the site's search page the words groq-js counts", async () => {
    const docs = [...bodies.map((body, n) => post(n, body)), ...assets]
    const params = {q: 'common', start: 0, end: 6}
    const query = (text: string) =>
      evaluateJson(parseQuery(text, params), docs, params, {maxResultBytes: 1_000_000})
    const page = JSON.parse(await query(searchQuery)) as {
      posts: Array<{_id: string; words: unknown}>
    }
    const counted = JSON.parse(
      await query(
        `*[_type == "post"]{_id, "words": math::sum(body[_type == "block"]{"n": count(string::split(pt::text(@), " ")[@ != ""])}.n)}`,
      ),
    ) as Array<{_id: string; words: unknown}>
    expect(page.posts.length).toBe(6)
    for (const card of page.posts)
      expect(card.words).toEqual(counted.find((each) => each._id === card._id)?.words)
    expect(page.posts.map((card) => card.words)).toContain(500)
  })
})
