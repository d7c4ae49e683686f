import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {seededRandom} from '../testing/seededRandom.ts'
import {evaluate, parse} from 'groq-js'
import {startLakeHolding, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {searchQuery} from '../../../shared/siteQueries.ts'
import {saturated} from './textScores.ts'
import {evaluateJson, parseQuery} from '../groq.ts'

/**
 * `score()` of a `text::query()` match, through the real @sanity/client against the lake,
 * compared with groq-js's own `score()` of `match` on the same documents and words, where the
 * two languages agree: plain ASCII words (and a trailing `*`), separated by what both split on.
 * groq-js scores a `match` by its terms even when it does not hold; a `text::query()` match that
 * does not hold scores 0 (textScores.ts), so documents groq-js's `match` rejects must score 0.
 */

const vocabulary = ['garden', 'Garden', 'GARDEN', 'rose', 'roses', 'fern', 'moss', 'stone'].concat([
  'river',
  'light',
  '42',
  'x7',
  "don't",
  'gardener',
])
/** What both groq-js's tokenizer and text::query() split on (no dots, underscores or edge quotes). */
const separators = [' ', ' ', ' ', ', ', '\n', ' (', ') ', '! ', '? ', '; ', ': ', ' - ', '/']

/** Words drawn with a skew (the first words far likelier), so frequencies above 1 are common. */
function text(next: () => number, words: number): string {
  let out = ''
  for (let i = 0; i < words; i++) {
    out += vocabulary[Math.floor(next() * next() * vocabulary.length)]
    if (i < words - 1) out += separators[Math.floor(next() * separators.length)]
  }
  return out
}

type Scored = {_id: string; _type: 'scored'; title: string; body: string}

function generate(count: number, next: () => number): Scored[] {
  return Array.from({length: count}, (_, n) => ({
    _id: `scored-${n}`,
    _type: 'scored' as const,
    title: text(next, 1 + Math.floor(next() * 4)),
    body: text(next, Math.floor(next() * 40)),
  }))
}

function queries(next: () => number, count: number): string[] {
  const pick = () => vocabulary[Math.floor(next() * vocabulary.length)] ?? ''
  return Array.from({length: count}, (_, n) => {
    const words = Array.from({length: 1 + Math.floor(next() * 3)}, pick)
    // Some with a prefix, some with a word no document holds.
    if (n % 5 === 1) words[words.length - 1] = `${(words.at(-1) ?? '').slice(0, 3)}*`
    if (n % 7 === 3) words.push('zeppelin')
    return words.join(' ')
  })
}

type Row = {_id: string; _score: number}

let lake: LakeUnderTest
const next = seededRandom(35)
const docs = generate(160, next)

beforeAll(async () => {
  lake = await startLakeHolding(docs)
})
afterAll(() => lake.stop())

async function groqJs<T>(query: string, q: string): Promise<T> {
  const value = await evaluate(parse(query, {params: {q}}), {dataset: docs, params: {q}})
  // groq-js's value of a query is JSON-shaped.
  return (await value.get()) as T
}

const paths = ['title', 'body', '[title, body]']

describe('score() of text::query() equals groq-js scoring match', () => {
  const cases = queries(next, 40)

  it('per document, for each path: groq-js’s score where its match holds, else 0', async () => {
    let compared = 0
    for (const q of cases)
      for (const path of paths) {
        const lakeQuery = `*[_type == "scored"] | score(${path} match text::query($q)) | order(_id asc) {_id, _score}`
        const [ours, viaGroqJs, expected] = await Promise.all([
          lake.anon.fetch<Row[]>(lakeQuery, {q}),
          // The same with a conjunct the native pipeline does not take: groq-js evaluates it.
          lake.anon.fetch<Row[]>(lakeQuery.replace('*[', '*[1 == 1 && '), {q}),
          groqJs<Array<Row & {matched: boolean}>>(
            `*[_type == "scored"] | score(${path} match $q) | order(_id asc) {_id, _score, "matched": ${path} match $q}`,
            q,
          ),
        ])
        const reference = expected.map(({_id, _score, matched}) => ({
          _id,
          _score: matched ? _score : 0,
        }))
        expect(ours, `${path} / ${q}`).toEqual(reference)
        expect(viaGroqJs, `${path} / ${q}`).toEqual(reference)
        compared += reference.filter((row) => row._score > 0).length
      }
    // Not vacuous: many documents matched, with scores other than 1.
    expect(compared).toBeGreaterThan(500)
  })

  it('combined with boost(), && and || over documents every match holds for, as groq-js', async () => {
    const shape = (m: (path: string) => string) =>
      `*[_type == "scored" && ${m('title')} && ${m('body')}]
        | score(boost(${m('title')}, 3), ${m('body')}, boost(${m('title')} && ${m('body')}, 0.5), ${m('[title, body]')} || ${m('title')}, boost(${m('body')} || _id == "x", 1.25))
        | order(_score desc, _id asc) {_id, _score}`
    const ours = shape((path) => `${path} match text::query($q)`)
    const theirs = shape((path) => `${path} match $q`)
    let rows = 0
    for (const q of cases) {
      const expected = await groqJs<Row[]>(theirs, q)
      expect(await lake.anon.fetch<Row[]>(ours, {q}), q).toEqual(expected)
      expect(await lake.anon.fetch<Row[]>(ours.replace('*[', '*[1 == 1 && '), {q}), q).toEqual(
        expected,
      )
      rows += expected.length
    }
    expect(rows).toBeGreaterThan(100)
  })

  it('counts a word however often it occurs (255 times and more too)', async () => {
    const often: Scored = {
      _id: 'scored-often',
      _type: 'scored',
      title: 'echo',
      body: Array.from({length: 300}, () => 'Echo').join(' '),
    }
    await lake.owner.createOrReplace(often)
    const [row] = await lake.anon.fetch<Row[]>(
      `*[_type == "scored" && body match text::query("echo")] | score(body match text::query("echo")) {_id, _score}`,
    )
    expect(row).toEqual({_id: 'scored-often', _score: saturated(300)})
    const [theirs] = await (
      await evaluate(parse(`*[body match "echo"] | score(body match "echo") {_id, _score}`), {
        dataset: [often],
      })
    ).get()
    expect(row).toEqual(theirs)
    // In process with no text index, the view's postings answer (a frequency over 255 is stored
    // as 255 there, and counted in the text).
    const query = `*[body match text::query("echo")] | score(body match text::query("echo")) {_id, _score}`
    const json = await evaluateJson(
      parseQuery(query, {}),
      [often, ...docs],
      {},
      {maxResultBytes: 1e6},
    )
    expect(JSON.parse(json)).toEqual([{_id: 'scored-often', _score: saturated(300)}])
  })
})

describe('the site’s search and a Studio-shaped search rank by relevance', () => {
  beforeAll(async () => {
    const post = (slug: string, date: string, title: string, body: string) => ({
      _id: `post-${slug}`,
      _type: 'post',
      title,
      slug: {_type: 'slug', current: slug},
      date,
      excerpt: 'Notes from the field.',
      body: [
        {
          _type: 'block',
          _key: 'b',
          style: 'normal',
          markDefs: [],
          children: [{_type: 'span', _key: 's', text: body, marks: []}],
        },
      ],
    })
    const transaction = lake.owner.transaction()
    // Newest first by date: a search ranking only where a word occurs would list them so.
    transaction.createOrReplace(post('once', '2024-05-01', 'Field notes', 'A kestrel, once.'))
    transaction.createOrReplace(
      post(
        'often',
        '2024-04-01',
        'More notes',
        'Kestrel after kestrel: kestrel, kestrel, kestrel.',
      ),
    )
    transaction.createOrReplace(post('title', '2024-03-01', 'The kestrel', 'Quiet hills.'))
    transaction.createOrReplace(
      post('both', '2024-02-01', 'Kestrels and a kestrel', 'The kestrel hunts; a kestrel waits.'),
    )
    await transaction.commit({visibility: 'sync'})
  })

  it('the site’s searchQuery: more occurrences rank higher, the title weighing most', async () => {
    const {posts} = await lake.anon.fetch<{posts: Array<{_id: string}>}>(searchQuery, {
      q: 'kestrel',
      start: 0,
      end: 10,
    })
    expect(posts.map((post) => post._id)).toEqual([
      'post-both',
      'post-title',
      'post-often',
      'post-once',
    ])
  })

  it('a Studio-shaped query (boost by field, then the whole document): a title saying it twice scores more', async () => {
    const hits = await lake.owner.fetch<Row[]>(
      `*[_type in $__types] | score(boost(_type in ["post"] && title match text::query($__query), 10), ([@, _id] match text::query($__query) || references($__rawQuery)))
        [_score > 0] {_type, _id, _originalId} | order(_score desc) [0...$__limit]`,
      {__types: ['post'], __query: 'kestr*', __rawQuery: 'kestr', __limit: 10},
    )
    const scores = await lake.owner.fetch<Row[]>(
      `*[_type == "post"] | score(boost(_type in ["post"] && title match text::query($q), 10)) {_id, _score}`,
      {q: 'kestr*'},
    )
    const scoreOf = (id: string) => scores.find((row) => row._id === id)?._score ?? 0
    // "Kestrels and a kestrel" (two words with the prefix) over "The kestrel" (one).
    expect(scoreOf('post-both')).toBe(1 + saturated(2) + 10)
    expect(scoreOf('post-title')).toBe(1 + saturated(1) + 10)
    expect(hits.map((hit) => hit._id).slice(0, 2)).toEqual(['post-both', 'post-title'])
    expect(hits.map((hit) => hit._id).sort()).toEqual(
      ['post-both', 'post-often', 'post-once', 'post-title'].sort(),
    )
  })
})
