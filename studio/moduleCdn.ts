/**
 * Where a local Studio's version check asks for the newest `sanity` (docs/studio-protocol.md
 * §g.5). Sanity's own Studio asks its module CDN, `https://sanity-cdn.com/v1/modules/…`; the local
 * build (studio/vite.ownOrigin.ts) swaps that origin for this path on the Studio's own origin,
 * and server/studio/moduleCdn.ts answers it.
 */
export const moduleCdnPath = '/studio/module-cdn'
