import {createClient, type LiveEvent} from '@sanity/client'
import type {Observable} from 'rxjs'
import {resolveSiteConfig, siteClientConfig} from '../../shared/siteConfig.ts'
import type {AppContext} from '../context.ts'

/**
 * `client.live.events()` on the same client settings as the site's own reads: this process's
 * lake over loopback, the content process at LAKE_URL, or the hosted project's API (the client
 * always opens live events on the API host, never the CDN). One stream per process.
 */
export function liveEventsOf(ctx: AppContext): () => Observable<LiveEvent> {
  return () => {
    const site = resolveSiteConfig({
      hostedProjectId: ctx.config.hostedProjectId,
      siteUrl: ctx.config.siteUrl,
    })
    const client = createClient(siteClientConfig(site, ctx.contentOrigin(), ctx.contentHeaders()))
    return client.live.events({tag: 'scriptorium.site'})
  }
}
