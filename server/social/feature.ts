import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {RateLimiter, type RateLimitOptions} from '../util/rateLimit.ts'
import {contentFor} from './contentFor.ts'
import {readSocialConfig, type SocialConfig} from './config.ts'
import {registerOwnerRoutes} from './ownerRoutes.ts'
import {articleMiddleware, federationMiddleware} from './honoBridge.ts'
import {registerInbox} from './inbox.ts'
import {SocialWeb} from './socialWeb.ts'

/** Seams for tests; the server passes none and gets the environment's settings. */
export interface SocialOptions {
  config?: Partial<SocialConfig>
  inboxRate?: RateLimitOptions
  /**
   * Test only, never from the environment: in hosted mode, the API's origin (a local lake served
   * over HTTP) in place of `https://<projectId>.api.sanity.io`.
   */
  hostedApiHost?: string
}

/** Activities per remote host per minute: a busy instance sends a few a second at peaks. */
export const defaultInboxRate = {limit: 300, windowMs: 60_000} as const

/** The owner's block requests per client per minute: a person clicking, or a script's batch. */
const ownerRate = {limit: 120, windowMs: 60_000} as const

/** The federation's own paths: Fedify answers them all (honoBridge.ts). */
const federationPaths = [
  '/.well-known/webfinger',
  '/.well-known/nodeinfo',
  '/nodeinfo/*',
  '/social/*',
]
/** A post's address: its `Article` when ActivityPub asks for it, else the site's page. */
const articlePath = '/blog/:slug'

/**
 * The social web (issue 39, docs/social-web.md): the site is one ActivityPub account through
 * Fedify, followers are private documents in the content store (socialContent.ts: the local lake,
 * or the hosted dataset with a write token), deliveries go through a durable queue in
 * DATA_DIR/social.sqlite. The process with the content holds the keys and the queue; a site
 * process (LAKE_URL) forwards to it and mounts nothing here.
 */
export function mountSocial(
  app: Hono,
  ctx: AppContext,
  options: SocialOptions = {},
): Feature | void {
  const {config} = ctx
  const store = contentFor(ctx, options.hostedApiHost)
  if (store === undefined) return
  if ('off' in store) {
    console.info(`[social] not on the social web: ${store.off}`)
    return
  }
  const social = {...readSocialConfig(), ...options.config}
  const web = new SocialWeb(store.content, config.dataDir, social, () => config.siteUrl)
  registerInbox(web.federation, web.followers, store.content)
  registerOwnerRoutes(app, {
    owner: store.owner,
    content: store.content,
    followers: web.followers,
    limiter: new RateLimiter(ownerRate),
  })
  const middleware = federationMiddleware(
    () => web.federation,
    () => config.siteUrl,
    {
      limiter: new RateLimiter(options.inboxRate ?? defaultInboxRate),
      isBlockedHost: (host) => web.blocks.isBlockedHost(host),
    },
  )
  for (const path of federationPaths) app.use(path, middleware)
  app.use(
    articlePath,
    articleMiddleware(
      () => web.federation,
      () => config.siteUrl,
    ),
  )
  web.start()
  console.info(
    `[social] the site is on the social web (Fedify): deliveries at ${social.sendPerSecond}/s at most` +
      (social.allowPrivate
        ? '; FEDERATION_ALLOW_PRIVATE=1: loopback and private addresses ARE fetched (tests and local trials only)'
        : ''),
  )
  return {close: () => web.close()}
}
