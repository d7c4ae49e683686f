import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import type {TrustProxy} from '../../http/clientAddress.ts'
import type {ImageVariants} from '../assets/images.ts'
import type {PrerenderUrls} from '../assets/prerender.ts'
import type {SiteQuery} from './siteQuery.ts'

/**
 * What the lake's routes need from the server, handed down by the wiring (server/app.ts) so that
 * the lake imports nothing above it: values read from the environment, and the Studio's origins
 * as predicates (they depend on the listeners).
 */
export interface LakeRoutesConfig {
  /** Where settings (studio-keyvalue.json) and uploaded images live. */
  dataDir: string
  /** The site's public origin, for asset URLs: read per request (with port 0 it is known late). */
  siteUrl(): string
  /** Whose X-Forwarded-For to believe for WebSocket upgrades. */
  trustProxy: TrustProxy
  /** Sessions end after this long unused ... */
  sessionIdleMs: number
  /** ... and this long after login. */
  sessionMaxMs: number
  /** Whether a browser origin is one the Studio runs on (presence's WebSocket). */
  isStudioOrigin(origin: string | undefined | null): boolean
  /** Whether a URL points into the Studio: the only place the login flow may send a session id. */
  isStudioUrl(url: string): boolean
  /**
   * Visitors' long-lived streams (listen, live events) open in all: half the listener's
   * connections (server/http/limits.ts), so they can never fill it (openStreams.ts).
   */
  maxAnonymousStreamsInAll?: number
  /**
   * The image URLs the site will ask for a published document, rendered ahead
   * (assets/prerender.ts); none: nothing is rendered ahead. The lake does not know the site.
   */
  prerenderUrls?: PrerenderUrls
}

/** How the server stops the lake's routes and hands them WebSocket upgrades. */
export interface LakeRoutes {
  /** Image variants: pre-rendering, and when it is done (tests and the bench wait for it). */
  images: ImageVariants
  /** The site's reads of this lake in process (siteQuery.ts). */
  siteQuery: SiteQuery
  close(): void
  /** Takes a WebSocket upgrade request; returns false if the path is not presence's. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
}
