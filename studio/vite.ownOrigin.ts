import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Plugin} from 'vite'
import {moduleCdnPath} from './moduleCdn.ts'

type Rewrite = {
  /** What the Studio would otherwise request from outside its origin, and why. */
  what: string
  /** The kind of module it sits in. */
  kind: 'css' | 'js'
  pattern: RegExp
  /** The text put in its place; a function gets the id of the module being rewritten. */
  replacement: string | ((id: string) => string)
  /** A string no emitted file may still contain once the rewrite is done. */
  gone?: string
}

/**
 * The three requests `sanity` 6.16 makes beyond its own origin whatever its configuration says
 * (docs/studio-protocol.md §g.5), each a constant in its code, rewritten at build time. No config
 * key reaches any of them.
 */
const rewrites: Rewrite[] = [
  {
    what: 'the Inter font from design-system-static.sanity.io (@sanity/ui 5 styles)',
    kind: 'css',
    // The same font, variable weights, latin subset, from @fontsource-variable/inter: a path
    // relative to the stylesheet, which Vite then emits as one of the Studio's own assets.
    pattern: /https:\/\/design-system-static\.sanity\.io\/InterVariable-latin-\d+\.woff2/g,
    replacement: (id) => fontFrom(id, 'inter-latin-wght-normal.woff2'),
  },
  {
    what: 'the Inter italic font from design-system-static.sanity.io (@sanity/ui 5 styles)',
    kind: 'css',
    pattern: /https:\/\/design-system-static\.sanity\.io\/InterVariable-Italic-latin-\d+\.woff2/g,
    replacement: (id) => fontFrom(id, 'inter-latin-wght-italic.woff2'),
    gone: 'design-system-static.sanity.io',
  },
  {
    what: 'the version check on sanity-cdn.com (the module CDN, polled every 15 minutes)',
    kind: 'js',
    // Only the module CDN's base (`${…}/v1/modules`): the media library's CDN, switched off, keeps its.
    pattern: /"https:\/\/sanity-cdn\.com"(\}\/v1\/modules)/g,
    replacement: `"${moduleCdnPath}"$1`,
  },
  {
    what: "the help menu's probe of the feedback tunnel on api.sanity.io",
    kind: 'js',
    // A URL fetch() cannot parse: it rejects before any request and without a console line, the
    // probe's own catch marks feedback unavailable, and "Give feedback" (to sanity.io) is not
    // offered. Nothing then ever uses the tunnel.
    pattern: /"https:\/\/api\.sanity\.io\/vX\/intake\/feedback"/g,
    replacement: '"http://[feedback-is-off-in-a-local-studio]"',
    gone: 'api.sanity.io/vX/intake/feedback',
  },
]

const fontDir = fileURLToPath(
  new URL('../node_modules/@fontsource-variable/inter/files/', import.meta.url),
)

/** A font file of @fontsource-variable/inter as a path relative to the stylesheet `id`. */
function fontFrom(id: string, file: string): string {
  return relative(dirname(id.split('?')[0]), join(fontDir, file))
}

function kindOf(id: string): 'css' | 'js' | undefined {
  const path = id.split('?')[0]
  if (path.endsWith('.css')) return 'css'
  if (/\.[cm]?js$/.test(path)) return 'js'
  return undefined
}

/**
 * Keeps a local Studio on its own origin (studio/vite.studio.ts applies it in local mode only):
 * rewrites each constant above in the Studio's dependencies. The build fails when a rewrite
 * finds nothing (a `sanity` upgrade moved it: look again, docs/studio-protocol.md §g.5) or when
 * an emitted file still names what it removed (a second copy of the package).
 */
export function ownOrigin(): Plugin {
  const applied = new Map<Rewrite, number>()
  return {
    name: 'scriptorium:own-origin',
    apply: 'build',
    // Before Vite's own CSS handling, which would turn the stylesheet into a module.
    enforce: 'pre',
    buildStart() {
      applied.clear()
    },
    transform(code, id) {
      const kind = kindOf(id)
      if (kind === undefined) return null
      let result = code
      for (const rewrite of rewrites) {
        if (rewrite.kind !== kind) continue
        const count = result.match(rewrite.pattern)?.length ?? 0
        if (count === 0) continue
        applied.set(rewrite, (applied.get(rewrite) ?? 0) + count)
        const replacement =
          typeof rewrite.replacement === 'string' ? rewrite.replacement : rewrite.replacement(id)
        result = result.replace(rewrite.pattern, replacement)
      }
      return result === code ? null : {code: result, map: null}
    },
    generateBundle(_options, bundle) {
      const missing = rewrites.filter((rewrite) => !applied.has(rewrite))
      if (missing.length > 0)
        this.error(
          `own-origin: not found, so not rewritten: ${missing.map((r) => r.what).join('; ')}`,
        )
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html)$/.test(file.fileName)) continue
        const text =
          file.type === 'chunk'
            ? file.code
            : typeof file.source === 'string'
              ? file.source
              : new TextDecoder().decode(file.source)
        for (const rewrite of rewrites) {
          if (rewrite.gone !== undefined && text.includes(rewrite.gone))
            this.error(`own-origin: ${file.fileName} still requests ${rewrite.what}`)
        }
      }
    },
  }
}
