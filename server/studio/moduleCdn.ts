import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Hono} from 'hono'
import {moduleCdnPath} from '../../studio/moduleCdn.ts'

/** The `sanity` this install runs: the one the Studio was built from. */
function installedSanityVersion(): string {
  const file = createRequire(import.meta.url).resolve('sanity/package.json')
  const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
    if (typeof manifest.version === 'string') return manifest.version
  }
  throw new Error(`${file} has no version`)
}

/**
 * The local Studio's version check (studio/moduleCdn.ts, docs/studio-protocol.md §g.5): the
 * module CDN's answer, `{latest, packageVersion}`, for both of its paths (`/sanity/<tag>/…` and
 * `/by-app/<appId>/…`). The newest version is the installed one: a local Studio is upgraded
 * through npm (docs/studio.md), never by the CDN, so the Studio offers no update and logs nothing.
 */
export function registerModuleCdn(app: Hono): void {
  const version = installedSanityVersion()
  app.get(`${moduleCdnPath}/v1/modules/*`, (c) =>
    c.json({latest: version, packageVersion: version}, 200, {
      'cache-control': 'no-cache',
      'x-robots-tag': 'noindex',
    }),
  )
}
