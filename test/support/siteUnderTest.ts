import {fileURLToPath} from 'node:url'
import {createClient, type SanityClient} from '@sanity/client'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {SentMarkers} from '../../server/http/sentMarkers.ts'
import {ContentEvents} from '../../server/live/contentEvents.ts'
import {keepSiteContent} from '../../server/ownedContent.ts'
import {followOwnCommits} from '../../server/readYourWrites.ts'
import {createSiteHandler, type SiteHandler} from '../../server/render/handler.ts'
import {startLakeUnderTest, type LakeUnderTest, type LakeUnderTestOptions} from './lakeUnderTest.ts'

/** The built site (npm run build): client/ and the SSR renderer. */
const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))

export interface SiteUnderTest {
  /** The lake the site reads (its owner client, `lake.lake.mutate`, …). */
  lake: LakeUnderTest
  handler: SiteHandler
  /** The lake's live events as the handler follows them. */
  events: ContentEvents
  /** The contact relay's one-time markers the handler takes. */
  markers: SentMarkers
  /** @sanity/client with the owner's token, on the site's config. */
  owner: SanityClient
  /** A page as a reader's browser gets it (redirects are answered, not followed). */
  get(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
}

export interface SiteUnderTestOptions extends LakeUnderTestOptions {
  /** Sees the live events before they start (to record their messages). */
  beforeEvents?: (events: ContentEvents) => void
}

/**
 * The site as a single-process server renders it, without the rest of the server: the lake
 * alone (./lakeUnderTest.ts) kept as the content process keeps it (its site copy, the
 * automatic redirects: server/ownedContent.ts), and the built site's handler
 * (server/render/handler.ts) reading it in process, following its live events, with
 * read-your-writes (server/readYourWrites.ts). No listener, no other feature, no HTTP edge.
 */
export async function startSiteUnderTest(
  options: SiteUnderTestOptions = {},
): Promise<SiteUnderTest> {
  const {beforeEvents, ...lakeOptions} = options
  const lake = await startLakeUnderTest(lakeOptions)
  await keepSiteContent(lake.lake)
  const site = resolveSiteConfig({siteUrl: lake.url})
  const events = new ContentEvents()
  beforeEvents?.(events)
  // Pages are cached only while the live events flow.
  const live = new Promise<void>((resolve) => {
    const stop = events.onState((state) => {
      if (state !== 'live') return
      stop()
      resolve()
    })
  })
  events.start(() => createClient(siteClientConfig(site, lake.url)).live.events())
  followOwnCommits(lake.lake, events)
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
  await live
  return {
    lake,
    handler,
    events,
    markers,
    owner,
    get: (path, init) => handler.handle(new Request(`${lake.url}${path}`, init)),
    async stop() {
      handler.close()
      events.close()
      await lake.stop()
    },
  }
}
