import {fileURLToPath} from 'node:url'
import {createClient} from '@sanity/client'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import {SentMarkers} from '../../server/http/sentMarkers.ts'
import {ContentEvents} from '../../server/live/contentEvents.ts'
import {keepSiteContent} from '../../server/ownedContent.ts'
import {followOwnCommits} from '../../server/readYourWrites.ts'
import {createSiteHandler} from '../../server/render/handler.ts'
import {startLakeUnderTest, type LakeUnderTest, type LakeUnderTestOptions} from './lakeUnderTest.ts'

/** The built site (npm run build): client/ and the SSR renderer. */
const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))

export interface SiteUnderTest {
  /** The lake the site reads (its owner client, `lake.lake.mutate`, …). */
  lake: LakeUnderTest
  /** A page as a reader's browser gets it (redirects are answered, not followed). */
  get(path: string): Promise<Response>
  stop(): Promise<void>
}

/**
 * The site as a single-process server renders it, without the rest of the server: the lake
 * alone (./lakeUnderTest.ts) kept as the content process keeps it (its site copy, the
 * automatic redirects: server/ownedContent.ts), and the built site's handler
 * (server/render/handler.ts) reading it in process, following its live events, with
 * read-your-writes (server/readYourWrites.ts). No listener, no other feature, no HTTP edge.
 */
export async function startSiteUnderTest(
  options: LakeUnderTestOptions = {},
): Promise<SiteUnderTest> {
  const lake = await startLakeUnderTest(options)
  await keepSiteContent(lake.lake)
  const site = resolveSiteConfig({siteUrl: lake.url})
  const events = new ContentEvents()
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
  const handler = createSiteHandler({
    distDir,
    site: () => site,
    contentOrigin: () => lake.url,
    contentQuery: lake.siteQuery,
    events,
    sentMarkers: new SentMarkers(),
  })
  await live
  return {
    lake,
    get: (path) => handler.handle(new Request(`${lake.url}${path}`)),
    async stop() {
      handler.close()
      events.close()
      await lake.stop()
    },
  }
}
