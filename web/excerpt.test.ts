import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {excerptLength, fallbackExcerpt} from '../shared/constants.ts'
import {postSummary} from '../server/discovery/feeds.ts'
import {resolveSiteConfig} from '../shared/siteConfig.ts'
import {postBySlugQuery} from './queries.ts'
import {createSiteClient} from './sanity.client.ts'

type Server = Awaited<ReturnType<typeof startLakeUnderTest>>

const block = (key: string, text: string) => ({
  _type: 'block' as const,
  _key: key,
  style: 'normal' as const,
  markDefs: [],
  children: [{_type: 'span' as const, _key: `${key}s`, text, marks: []}],
})

/**
 * Bodies where a careless derivation would differ: characters outside the BMP (two UTF-16 units,
 * one GROQ character), a cut inside the second block, spaces at the cut, and no text at all.
 */
const bodies: Record<string, Array<ReturnType<typeof block>>> = {
  astral: [block('a', `${'🏔️ Gulmarg '.repeat(20)}`)],
  twoBlocks: [block('a', 'First paragraph.'), block('b', 'x'.repeat(200))],
  spaceAtCut: [block('a', `${'y'.repeat(excerptLength - 1)}   and more`)],
  short: [block('a', 'Short.')],
  empty: [],
}

let server: Server

beforeAll(async () => {
  server = await startLakeUnderTest()
  await server.lake.mutate(
    Object.entries(bodies).map(([slug, body]) => ({
      create: {
        _id: slug,
        _type: 'post',
        title: slug,
        slug: {_type: 'slug', current: slug},
        date: '2024-01-01',
        category: 'General',
        body,
      },
    })),
  )
})

afterAll(async () => {
  await server?.stop()
})

describe('the derived excerpt is one rule', () => {
  it("the feed's summary of a post without its own excerpt is the post page's meta description", async () => {
    const client = createSiteClient(resolveSiteConfig({siteUrl: server.url}), server.url)
    for (const [slug, body] of Object.entries(bodies)) {
      const page = await client.fetch(postBySlugQuery, {slug})
      expect(postSummary({excerpt: null, body}), slug).toBe(page?.excerpt)
    }
    expect(postSummary({excerpt: null, body: []})).toBe(fallbackExcerpt)
    expect(Array.from(postSummary({excerpt: null, body: bodies.astral}))).toHaveLength(
      excerptLength,
    )
  })
})
