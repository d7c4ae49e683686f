import type {Context} from 'hono'
import {LakeError} from '../errors.ts'
import {refusals, safe} from '../../http/log.ts'

/**
 * Counts what each client holds open (queries in flight, listen streams), so one client cannot
 * take more than its share. Entries exist only while something is held: memory is bounded by
 * what is open, and nothing outlives the process (the spec's privacy promise).
 */
export class ClientCounter {
  private readonly held = new Map<string, number>()

  /** Takes one unit for `key` if it holds fewer than `max`; returns its release, or undefined. */
  acquire(key: string, max: number): (() => void) | undefined {
    const count = this.held.get(key) ?? 0
    if (count >= max) return undefined
    this.held.set(key, count + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.held.get(key) ?? 1) - 1
      if (left <= 0) this.held.delete(key)
      else this.held.set(key, left)
    }
  }

  count(key: string): number {
    return this.held.get(key) ?? 0
  }
}

/**
 * The 429 a client gets over a cap: Retry-After set, the refusal logged (summarised per client
 * per minute by server/http/log.ts), nothing else changed.
 */
export function overCap(
  c: Context,
  client: string,
  kind: string,
  what: string,
  retryAfterSeconds = 1,
): LakeError {
  refusals.refuse(
    client,
    kind,
    `[lake] 429 ${c.req.method} ${safe(c.req.path)} from ${client}: ${what}`,
  )
  c.header('retry-after', String(retryAfterSeconds))
  return new LakeError(429, 'tooManyRequests', `${what}; retry in ${retryAfterSeconds} s`)
}
