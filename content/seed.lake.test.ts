import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Lake, seedIfEmpty} from '../server/lake/index.ts'
import {buildSeed} from './build-seed.ts'

interface Card {
  title: string
  slug: string
  date: string
  excerpt: string
  category: string
  text: string
}

// The blog list's fields (requirements §7) plus the body's plain text the post page derives from.
const cardsQuery = `*[_type == "post"] | order(date desc){title, "slug": slug.current, date, excerpt, category, "text": pt::text(body)}`

describe('seeding an empty lake from content/seed.ndjson', () => {
  let dataDir: string
  let lake: Lake

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'seed-test-'))
    lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production', token: 'test-token'})
    expect(await seedIfEmpty(lake)).toBe(true)
  })

  afterAll(() => {
    lake.close()
    rmSync(dataDir, {recursive: true, force: true})
  })

  it('shows every post to an anonymous reader, newest first, with text for the meta description', async () => {
    const expected = buildSeed().trimEnd().split('\n').length
    const cards = await lake.query<Card[]>(
      cardsQuery,
      {},
      {perspective: 'published', authenticated: false},
    )
    expect(cards).toHaveLength(expected)
    expect(cards.map((card) => card.date)).toEqual(
      cards
        .map((card) => card.date)
        .sort()
        .reverse(),
    )
    for (const card of cards) {
      expect(card.title && card.slug && card.excerpt && card.category).toBeTruthy()
      expect(card.text.length).toBeGreaterThanOrEqual(151)
    }
  })

  it('keeps the exported system fields as they are in the file', () => {
    const doc = lake.getDocument('post-chinar-season')
    expect(doc).toMatchObject({
      _createdAt: '2019-11-18T09:00:00Z',
      _updatedAt: '2019-11-18T09:00:00Z',
      slug: {current: 'chinar-season'},
    })
    expect(doc?._rev).toMatch(/^[A-Za-z0-9]{22}$/)
  })

  it('does not seed a lake that already has content', async () => {
    const revision = lake.revision
    expect(await seedIfEmpty(lake)).toBe(false)
    expect(lake.revision).toBe(revision)
  })
})
