import {apiVersion, defaultDataset} from '../../shared/constants.ts'
import {safe} from '../http/log.ts'
import {setNewest} from '../util/boundedMap.ts'

/**
 * A verdict is reused this long: a preview page's assets come in a burst. Short for a live
 * session (one that ends through another site process may be believed this long; through this
 * one it is forgotten at once), longer for a token that is not one.
 */
const liveVerdictMs = 1_000
const deadVerdictMs = 5_000
/** Sessions remembered at once (the owner's tabs; a guessed token is one entry, then evicted). */
const maxVerdicts = 256
/** A check is one trivial query: past this the page renders as a visitor's. */
const checkTimeoutMs = 2_000

/**
 * Preview on a site process (LAKE_URL): the sessions live in the content process's lake, which
 * checks a preview token on every read it makes with it. Before rendering drafts, the site asks
 * the lake whether the token is a live session (a query of `1` with it: 200, or 401 once the
 * session ended), and remembers the answer briefly; an ended session then renders the public
 * page. A made-up token costs one trivial query, then is remembered as dead. Any failure to ask means no preview.
 */
export interface RemotePreview {
  credential(token: string): Promise<Record<string, string> | undefined>
  /** The session ended through this process (the disable route): believe it at once. */
  ended(token: string): void
}

export function remotePreview(lakeUrl: string): RemotePreview {
  const verdicts = new Map<string, {live: boolean; untilMs: number}>()
  const check = new URL(`/v${apiVersion}/data/query/${defaultDataset}`, lakeUrl)
  check.searchParams.set('query', '1')
  return {
    async credential(token) {
      const credential = {authorization: `Bearer ${token}`}
      const known = verdicts.get(token)
      if (known && known.untilMs > Date.now()) return known.live ? credential : undefined
      let live: boolean
      try {
        const response = await fetch(check, {
          headers: credential,
          signal: AbortSignal.timeout(checkTimeoutMs),
        })
        await response.body?.cancel()
        live = response.status === 200
      } catch (error) {
        console.warn(`[forward] could not check a preview session: ${safe(String(error))}`)
        return undefined
      }
      const untilMs = Date.now() + (live ? liveVerdictMs : deadVerdictMs)
      setNewest(verdicts, token, {live, untilMs}, maxVerdicts)
      return live ? credential : undefined
    },
    ended: (token) =>
      setNewest(verdicts, token, {live: false, untilMs: Date.now() + deadVerdictMs}, maxVerdicts),
  }
}
