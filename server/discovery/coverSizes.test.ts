import {parseFeed} from '@rowanmanning/feed-parser'
import {Hono} from 'hono'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import type {AppContext} from '../context.ts'
import {readConfig} from '../env.ts'
import {ContentEvents} from '../live/contentEvents.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../test/support/lakeUnderTest.ts'
import {mountDiscovery} from './feature.ts'

// Issue #35: every RSS enclosure said length="0". The feeds, built from a real lake as the
// site reads it, now give the cover variant's real byte length, as a reader downloads it.
const siteUrl = 'https://writer.example'
let t: LakeUnderTest
let app: Hono
const events = new ContentEvents()

beforeAll(async () => {
  t = await startLakeUnderTest()
  events.start(() => t.anon.live.events())
  await vi.waitFor(() => expect(events.live).toBe(true), {timeout: 15_000})
  const photo = await sharp({
    create: {width: 1600, height: 1000, channels: 3, background: {r: 40, g: 90, b: 140}},
  })
    .jpeg()
    .toBuffer()
  const asset = await t.owner.assets.upload('image', photo, {filename: 'cover.jpg'})
  await t.owner.create({
    _id: 'pictured',
    _type: 'post',
    title: 'Pictured',
    slug: {_type: 'slug', current: 'pictured'},
    date: '2024-03-05',
    category: 'General',
    mainImage: {_type: 'image', asset: {_type: 'reference', _ref: asset._id}},
    body: [],
  })
  await t.imagesIdle()
  const ctx: AppContext = {
    config: readConfig({SITE_URL: siteUrl}),
    lake: undefined,
    internalOrigin: () => t.url,
    contentOrigin: () => t.url,
    contentHeaders: () => ({}),
    contentEvents: events,
  }
  app = new Hono()
  mountDiscovery(app, ctx)
})
afterAll(async () => {
  events.close()
  await t?.stop()
})

describe('feed enclosures', () => {
  it('RSS and Atom give the cover variant’s real byte length', async () => {
    for (const path of ['/rss.xml', '/atom.xml']) {
      const xml = await (await app.request(path)).text()
      const [media] = parseFeed(xml).items[0].media
      expect(media.url, path).toContain('/cover.jpeg?')
      // What a feed reader downloads at that address (SITE_URL is this lake here).
      const image = await fetch(media.url!.replace(siteUrl, t.url))
      expect(image.status).toBe(200)
      const bytes = (await image.arrayBuffer()).byteLength
      expect(bytes).toBeGreaterThan(1000)
      expect(media.length, path).toBe(bytes)
    }
  })
})
