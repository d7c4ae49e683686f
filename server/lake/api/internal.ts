import {timingSafeEqual} from 'node:crypto'
import type {Context} from 'hono'
import type {Lake} from '../lake.ts'

/** The header that carries the lake's per-process secret (lake.ts `internalSecret`). */
const internalHeader = 'x-lake-internal'

/**
 * Headers for the site's own server-side content client (server/render, server/discovery): its
 * queries then run in the trusted lane, uncounted by per-client caps, yet still with anonymous
 * visibility (published documents only). The secret is random per process and never sent
 * anywhere but to this process over loopback.
 */
export function internalHeaders(lake: Lake): Record<string, string> {
  return {[internalHeader]: lake.internalSecret}
}

/** Headers a separate site process (LAKE_URL) sends with SITE_READ_TOKEN, to the same effect. */
export function siteReadHeaders(token: string): Record<string, string> {
  return {[internalHeader]: token}
}

const same = (presented: string, expected: string) => {
  const a = Buffer.from(presented)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Whether a request comes from this process's own site client, or a site process's. */
export function isInternal(c: Context, lake: Lake): boolean {
  const presented = c.req.header(internalHeader)
  if (presented === undefined) return false
  return (
    same(presented, lake.internalSecret) ||
    (lake.siteReadToken !== undefined && same(presented, lake.siteReadToken))
  )
}
