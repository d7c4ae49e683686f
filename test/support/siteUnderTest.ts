import {fileURLToPath} from 'node:url'
import {createClient, type SanityClient} from '@sanity/client'
import {expect, vi} from 'vitest'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {SentMarkers} from '../../server/http/sentMarkers.ts'
import {ContentEvents} from '../../server/live/contentEvents.ts'
import {createSiteHandler, type SiteHandler} from '../../server/render/handler.ts'
import {startLakeUnderTest, type LakeUnderTest} from './lakeUnderTest.ts'

/** The built site (npm run build). */
const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))

/** The site's renderer over a real lake, as one process serves them, without the rest of it. */
export interface SiteUnderTest {
  lake: LakeUnderTest
  handler: SiteHandler
  events: ContentEvents
  /** The contact relay's one-time markers the handler takes. */
  markers: SentMarkers
  /** @sanity/client with the owner's token. */
  owner: SanityClient
  /** The page at `path` as the handler answers a visitor. */
  get(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
}

/**
 * The built site rendering the seeded content of a real lake, with the render cache following
 * the lake's live events through the real client, as the server subscribes to them; its reads go
 * in process, on the site's lane, as one process reads its own lake (server/app.ts).
 * `beforeEvents` sees the events before they start (to record the messages).
 */
export async function startSiteUnderTest(
  beforeEvents?: (events: ContentEvents) => void,
): Promise<SiteUnderTest> {
  const lake = await startLakeUnderTest({seed: true})
  const site = resolveSiteConfig({siteUrl: lake.url})
  const events = new ContentEvents()
  beforeEvents?.(events)
  events.start(() => createClient(siteClientConfig(site, lake.url)).live.events())
  const markers = new SentMarkers()
  const handler = createSiteHandler({
    distDir,
    site: () => site,
    contentOrigin: () => lake.url,
    contentQuery: lake.siteQuery,
    events,
    sentMarkers: markers,
  })
  const owner = createClient({
    ...siteClientConfig(site, lake.url),
    useCdn: false,
    token: lake.token,
  })
  await vi.waitFor(() => expect(events.live).toBe(true), {timeout: 30_000})
  return {
    lake,
    handler,
    events,
    markers,
    owner,
    get: (path, init) => handler.handle(new Request(`${lake.url}${path}`, init)),
    stop: async () => {
      handler.close()
      events.close()
      await lake.stop()
    },
  }
}
