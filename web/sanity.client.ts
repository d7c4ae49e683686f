import {createClient, type SanityClient} from '@sanity/client'
import {previewClientConfig, siteClientConfig, type SiteConfig} from '../shared/siteConfig.ts'

/**
 * The site's one content client: read-only, no token, CDN on. Retries, POST for long queries and
 * error shapes are @sanity/client's own behaviour and deliberately not re-implemented here.
 * On the server, `headers` carry the lake's internal credential (never given in the browser).
 */
export function createSiteClient(
  site: SiteConfig,
  origin: string,
  headers?: Record<string, string>,
): SanityClient {
  return createClient(siteClientConfig(site, origin, headers))
}

/** The content client in preview mode (env.ts `previewClientConfig`). */
export function createPreviewClient(
  site: SiteConfig,
  apiHost: string | undefined,
  headers?: Record<string, string>,
): SanityClient {
  return createClient(previewClientConfig(site, apiHost, headers))
}
