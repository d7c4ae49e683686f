import type {ServerConfig} from '../env.ts'
import {studioOrigins} from '../http/studioOrigins.ts'

/**
 * The Studio's Content-Security-Policy. The page holds the owner's token in localStorage, so what
 * matters most is that no script runs but the build's own files: `script-src 'self'`, no inline
 * script, no eval (the local build has neither, and no WebAssembly). Styles may be inline
 * (styled-components writes `<style>` elements, and index.html has one). Images and workers may
 * come from `blob:` (an image's preview before upload). The Presentation tool frames the site on
 * the Studio's own origin (studio/presentation/index.ts), so frames are `'self'` too.
 *
 * A local Studio talks to its own origin and to `<projectId>.localhost` (docs/studio-protocol.md
 * §a); `'self'` covers its WebSocket too. A hosted Studio (SANITY_STUDIO_PROJECT_ID) talks to
 * sanity.io's API, CDNs and avatar hosts, which Sanity does not list: its data, image and font
 * sources are any https origin, while its scripts stay `'self'`.
 */
export function studioContentSecurityPolicy(config: ServerConfig): string {
  const hosted = config.hostedProjectId !== undefined
  const connect = hosted ? ["'self'", 'https:', 'wss:'] : ["'self'", ...studioOrigins(config)]
  const external = hosted ? ['https:'] : []
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'unsafe-inline' ${external.join(' ')}`.trim(),
    `img-src 'self' data: blob: ${external.join(' ')}`.trim(),
    `font-src 'self' data: ${external.join(' ')}`.trim(),
    `connect-src ${[...new Set(connect)].join(' ')}`,
    `media-src 'self' data: blob: ${external.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}
