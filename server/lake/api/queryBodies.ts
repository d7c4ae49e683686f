import type {Context} from 'hono'
import {ClientCounter} from './clientCaps.ts'
import {LakeError} from '../errors.ts'

/**
 * A POSTed query from the owner, a Studio session or the site's own renders: as large as
 * Sanity's own limit allows for a query with its params.
 */
export const maxTrustedQueryBodyBytes = 1024 * 1024

/**
 * A visitor's POSTed query. @sanity/client POSTs only a query whose GET URL would pass 11,264
 * characters, so an honest visitor's body is about that size at most: the site's Load More asks
 * with a GET of under 1 KiB, and the Studio and Vision are always the owner's (or a preview
 * session's), so they keep the trusted cap. A flat 1 MiB of params from 16 addresses kept the main
 * thread reading, scanning, parsing and keying them: a cached `count(*)` went from 4.4 ms to a
 * p50 of 231 ms (security review 3, M3). At 64 KiB the same bodies cost a sixteenth.
 */
export const maxAnonymousQueryBodyBytes = 64 * 1024

/**
 * Visitors' POSTed bodies read and parsed at once, across every client. Each address already
 * holds at most 2 query slots, but many addresses together are many bodies; this bounds the
 * main thread's share of them whatever the number of addresses. Honest visitors POST rarely (see
 * above), so 8 is never reached by them; past it a POST gets 503 with Retry-After, GETs and the
 * owner's and site's own queries pass.
 */
export const maxAnonymousBodiesAtOnce = 8

const retryAfterSeconds = 1

/** The global gate on visitors' query bodies: one count under one key. */
export class AnonymousBodies {
  private readonly held = new ClientCounter()

  /**
   * Takes a place for a visitor's body, or throws the Sanity-shaped 503 (the app's error
   * responder logs it through the summarising refusal log).
   */
  enter(c: Context): () => void {
    const release = this.held.acquire('*', maxAnonymousBodiesAtOnce)
    if (release) return release
    c.header('retry-after', String(retryAfterSeconds))
    throw new LakeError(
      503,
      'serviceUnavailable',
      `Too many anonymous query bodies being read; retry in ${retryAfterSeconds} s`,
    )
  }
}
