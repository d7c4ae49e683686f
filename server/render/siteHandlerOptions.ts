import type {ContentQuery, SiteConfig} from '../../web/entry.server.tsx'
import type {ContentEvents} from '../live/contentEvents.ts'

export interface SiteHandlerOptions {
  /** The build output: client/ (assets + manifest) and server/ (renderer). */
  distDir: string
  /** The build before it (server/build/served.ts): its hashed assets are served too. */
  previousDistDir?: string
  /** The site's config, read per request (SITE_URL's origin is known only after listen). */
  site(): SiteConfig
  /** Where the server-side content client reaches the lake (local mode). */
  contentOrigin(): string
  /** Headers the server-side content client sends (the lake's internal credential). */
  contentHeaders?(): Record<string, string>
  /** This process's own lake, read in process (server/lake/api/siteQuery.ts); else over HTTP. */
  contentQuery?: ContentQuery
  /**
   * The content store's live events (server/live/contentEvents.ts): pages are cached while they
   * flow and dropped by the sync tags they name. Without them nothing is cached.
   */
  events?: ContentEvents
  /**
   * The contact relay's one-time markers (server/http/sentMarkers.ts; a site process takes
   * them from the content process, server/forward/remoteSentMarkers.ts): a page asked for with
   * a marker it can take shows the thank-you toast, once.
   */
  sentMarkers?: {take(token: string): boolean | Promise<boolean>}
}

/** A request in preview mode: the credential its drafts are read with (server/preview/). */
export interface PreviewRequest {
  headers: Record<string, string>
}

/**
 * Whether a request that presents a preview cookie is in preview: asked only for a page, after
 * the assets (a site process asks its content process each time: server/forward/remotePreview.ts).
 */
export type PreviewLookup = () => PreviewRequest | undefined | Promise<PreviewRequest | undefined>
