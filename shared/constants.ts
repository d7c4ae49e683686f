/**
 * Facts that the server, the lake, the site's browser code and the Studio all need, written
 * once. This module imports nothing, so every bundle can take it in without pulling server code
 * into the browser (docs/architecture.md, "Layers").
 */

/** The local lake's project id, used when no hosted Sanity project is configured. */
export const localProjectId = 'scriptorium'

/** The one dataset: the site reads 'production' in both modes (requirements §7.4, §9.6). */
export const defaultDataset = 'production'

/** The Content Lake API version the site and the Studio's own queries speak (requirements §9.6). */
export const apiVersion = '2023-07-29'

/** The owner's login page, served by the lake for the Studio's 'local' login provider. */
export const studioLoginPath = '/studio-login'

/** Where the site enters and leaves preview mode (docs/preview.md); the Studio frames them. */
export const previewEnablePath = '/api/preview/enable'
export const previewDisablePath = '/api/preview/disable'

/**
 * The derived excerpt (requirements §3.3, §9.4): the first 151 characters — Unicode code points,
 * as GROQ's `string::split(text, "")` counts them — of a post body's plain text, or the fallback
 * when the body has no text. The post query derives it in GROQ (web/queries.ts) and the feeds in
 * TypeScript (`derivedExcerpt`); web/excerpt.test.ts checks that both give the same text.
 */
export const excerptLength = 151

/** The meta description of a post whose body has no text (requirements §3.3). */
export const fallbackExcerpt = 'A blog post by a writer based in Kashmir.'

/** The derived excerpt of a body's plain text, exactly as the post query computes it. */
export function derivedExcerpt(plainText: string): string {
  if (plainText.length === 0) return fallbackExcerpt
  return Array.from(plainText).slice(0, excerptLength).join('')
}

/**
 * The query parameter with which the contact relay sends a native post back to its page
 * (server/contact/sentMarkers.ts): a one-time token, for which the server renders the contact
 * toast once (server/render/handler.ts) and the boot script clears it (web/boot/bootScript.ts).
 */
export const sentParam = 'sent'

/**
 * Where the boot script reports a prerendered page that the reader was shown (web/boot/boot.ts):
 * the one view the server cannot see itself (server/stats/beacon.ts).
 */
export const viewBeaconPath = '/api/stats/view'
