import type {ServerConfig} from '../env.ts'

/**
 * The origins the Studio runs on: the HTTPS listener as localhost or 127.0.0.1, and the
 * `<projectId>.localhost` host that @sanity/sdk still calls (docs/studio-protocol.md §a); and an https
 * SITE_URL, where a TLS proxy in front serves it (docs/deploy.md). Read at request time: with
 * port 0 the port is known only after listening.
 */
export function studioOrigins(config: ServerConfig): string[] {
  const port = config.httpsPort
  const listener = config.httpsListener
    ? [
        `https://localhost:${port}`,
        `https://127.0.0.1:${port}`,
        `https://${config.projectId}.localhost:${port}`,
      ]
    : []
  const site = new URL(config.siteUrl)
  if (site.protocol !== 'https:') return listener
  // On a local proxy's origin (https://localhost:<port>), @sanity/sdk calls
  // `<projectId>.localhost:<port>` as it does on the listener's; a public host gets no such origin.
  const sdk =
    site.hostname === 'localhost'
      ? [`https://${config.projectId}.localhost${site.port ? `:${site.port}` : ''}`]
      : []
  return [...listener, site.origin, ...sdk]
}

/**
 * Where the Studio is served over HTTPS for a request that came in on plain HTTP: an https
 * SITE_URL (the public address, a proxy or TLS_CERT), else the local HTTPS listener; undefined
 * when there is neither (HTTPS_PORT=off with an http SITE_URL), and then it is served as it is.
 */
export function studioHttpsOrigin(config: ServerConfig): string | undefined {
  const site = new URL(config.siteUrl)
  if (site.protocol === 'https:') return site.origin
  return config.httpsListener ? `https://localhost:${config.httpsPort}` : undefined
}

export function isStudioOrigin(
  config: ServerConfig,
  origin: string | undefined | null,
): origin is string {
  return typeof origin === 'string' && studioOrigins(config).includes(origin)
}

/**
 * Whether `url` (the login flow's `origin` parameter) points into the Studio: a Studio origin,
 * and a path under /studio. Anything else would let a crafted link send a session id elsewhere.
 */
export function isStudioUrl(config: ServerConfig, url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  return (
    isStudioOrigin(config, parsed.origin) &&
    /^\/studio(\/|$)/.test(parsed.pathname) &&
    !parsed.username
  )
}
