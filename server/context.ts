import type {ServerConfig} from './env.ts'
import type {Lake} from './lake/index.ts'
import type {ContentEvents} from './live/contentEvents.ts'
import {hostedWriteToken} from './util/hostedWriteToken.ts'

/** What every feature of one server process shares. */
export interface AppContext {
  config: ServerConfig
  /**
   * The local Content Lake; undefined in hosted mode (SANITY_STUDIO_PROJECT_ID set) and in a
   * site process (LAKE_URL set).
   */
  lake: Lake | undefined
  /** Origin (http://127.0.0.1:port) of this process's own HTTP listener, known once it listens. */
  internalOrigin(): string
  /**
   * Where the site's server-side reads go: this process's own lake over loopback, or LAKE_URL
   * (ignored in hosted mode, where the client goes to sanity.io).
   */
  contentOrigin(): string
  /** Headers those reads carry: the lake's internal credential, or SITE_READ_TOKEN. */
  contentHeaders(): Record<string, string>
  /**
   * The content store's live events, one subscription per process, in every mode: what keeps
   * the render cache and discovery fresh (server/live/contentEvents.ts).
   */
  contentEvents: ContentEvents
  /**
   * Visitors' long-lived streams open in all, from the listener's size
   * (server/http/limits.ts, `anonymousStreamsInAll`); the lake's default when unset.
   */
  maxAnonymousStreamsInAll?: number
}

/** Subscriptions are on with a local lake and SMTP_URL (docs/newsletter.md). */
export function subscriptionsEnabled(ctx: Pick<AppContext, 'lake' | 'config'>): boolean {
  // A site process forwards the form to the content process (server/forward/feature.ts).
  if (ctx.config.lakeUrl !== undefined) return ctx.config.siteNewsletter
  return ctx.lake !== undefined && Boolean(ctx.config.smtpUrl)
}

/**
 * The site is on the social web (docs/social-web.md) with a local lake, behind a content process
 * that has one (LAKE_URL: the federation's paths are forwarded), and in hosted mode with a write
 * token (server/social/contentFor.ts makes the same choice). The pages link the account then.
 */
export function socialWebEnabled(ctx: Pick<AppContext, 'lake' | 'config'>): boolean {
  const {config} = ctx
  if (ctx.lake !== undefined || config.lakeUrl !== undefined) return true
  if (config.hostedProjectId === undefined) return false
  return 'token' in hostedWriteToken(config.hostedWriteToken, config.dataDir)
}
