import {fileURLToPath} from 'node:url'
import {createClient, type SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {ContentEvents} from '../live/contentEvents.ts'
import {fakeLiveApi, frame, type FakeLiveApi} from '../live/testing/fakeLiveApi.ts'
import {createSiteHandler, type SiteHandler} from './handler.ts'

// The built site rendering a real lake's content, while its live events come from a scripted
// store that fails in each of the ways a Live Content API can: the site falls back to rendering
// uncached and never shows a page from before a change it may have missed.

const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))
const post = {
  id: 'post-ghostwriting-without-losing-your-voice',
  path: '/blog/ghostwriting-without-losing-your-voice',
}
let server: Awaited<ReturnType<typeof startTestServer>>
let api: FakeLiveApi
let events: ContentEvents
let handler: SiteHandler
let owner: SanityClient

beforeAll(async () => {
  server = await startTestServer()
  // Its queries too go through the scripted store (to the real lake), as a hosted project's would.
  api = await fakeLiveApi({queriesTo: server.url})
  const site = resolveSiteConfig({siteUrl: server.config.siteUrl})
  events = new ContentEvents({minBackoffMs: 20, maxBackoffMs: 50})
  events.start(() => createClient(siteClientConfig(site, api.url)).live.events())
  handler = createSiteHandler({distDir, site: () => site, contentOrigin: () => api.url, events})
  owner = createClient({
    ...siteClientConfig(site, server.url),
    useCdn: false,
    token: server.lake!.token,
  })
})
afterAll(async () => {
  handler.close()
  events.close()
  await api.close()
  await server.stop()
})

const get = async (path: string) => {
  const response = await handler.handle(new Request(`${server.url}${path}`))
  return {cache: response.headers.get('x-cache'), html: await response.text()}
}
const until = (check: () => void) => vi.waitFor(check, {timeout: 5_000, interval: 10})

/** Publishes `title` on the real lake; the scripted store says nothing of it. */
const publishUnseen = (title: string) => owner.patch(post.id).set({title}).commit()

describe('a site whose live events fail', () => {
  it('caches nothing before the first welcome', async () => {
    await until(() => expect(api.connections).toHaveLength(1))
    await get('/services')
    expect((await get('/services')).cache).toBe('MISS')
    api.send(frame('welcome', {}, 'w1'))
    await until(() => expect(events.live).toBe(true))
    await get('/services')
    await get(post.path)
    expect((await get('/services')).cache).toBe('HIT')
  })

  for (const failure of ['restart', 'goaway', '404', '429'] as const) {
    it(`a change it missed before a ${failure} is shown after it, then caching resumes`, async () => {
      await get(post.path)
      expect((await get(post.path)).cache).toBe('HIT')
      const title = `Ghostwriting before ${failure}`
      await publishUnseen(title)
      // Nothing told it: the cached page is what it can know of.
      expect((await get(post.path)).html).not.toContain(title)
      const connections = api.connections.length
      const resets = events.counts.resets
      if (failure === 'restart') api.send(frame('restart', {}, 'r1'))
      if (failure === 'goaway') {
        api.script({frames: [frame('welcome', {}, 'w2')]})
        api.send(frame('goaway', {reason: 'switch to polling'}, 'g1'))
      }
      if (failure === '404' || failure === '429') {
        // The store ends the stream, refuses the resume, then welcomes a new stream.
        api.script({status: Number(failure)}, {frames: [frame('welcome', {}, `w-${failure}`)]})
        api.end()
      }
      // A goaway is followed by one new stream; a refused resume by the refusal, then one.
      const opened = {restart: 0, goaway: 1, '404': 2, '429': 2}[failure]
      await until(() => expect(api.connections.length).toBe(connections + opened))
      await until(() => expect(events.counts.resets).toBeGreaterThan(resets))
      await until(() => expect(events.live).toBe(true))
      const asked = api.queries.length
      const page = await get(post.path)
      expect(page.html).toContain(title)
      expect(page.cache).toBe('MISS')
      // Asked with the last event's id, and `noStale`: a CDN cannot answer from before it.
      for (const query of api.queries.slice(asked)) {
        expect(query.searchParams.get('lastLiveEventId')).toBe(events.lastEventId)
        expect(query.searchParams.get('cacheMode')).toBe('noStale')
      }
      expect(api.queries.length).toBeGreaterThan(asked)
      expect((await get(post.path)).cache).toBe('HIT')
    })
  }
})
