import {fileURLToPath} from 'node:url'
import type {Hono} from 'hono'
import {resolveSiteConfig} from '../../web/env.ts'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'
import {createSiteHandler} from './handler.ts'

const distDir = fileURLToPath(new URL('../../dist/', import.meta.url))

/**
 * The public site, mounted last as the catch-all: browser assets from dist/client and every
 * other GET rendered on the server by dist/server's renderer. Rendered pages are cached until
 * the lake reports a content change; in hosted mode (no lake to listen to) nothing is cached.
 */
export function mountSite(app: Hono, ctx: AppContext): Feature {
  const handler = createSiteHandler({
    distDir,
    site: () =>
      resolveSiteConfig({
        hostedProjectId: ctx.config.hostedProjectId,
        siteUrl: ctx.config.siteUrl,
        contactAction: ctx.config.contactAction,
        editingSamplesUrl: ctx.config.editingSamplesUrl,
      }),
    contentOrigin: () => ctx.internalOrigin(),
    cache: ctx.lake !== undefined,
  })
  const unsubscribe = ctx.onContentChange(() => handler.invalidate())
  app.get('*', (c) => handler.handle(c.req.raw))
  return {close: () => void unsubscribe()}
}
