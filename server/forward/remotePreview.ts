import {apiVersion, defaultDataset} from '../../shared/constants.ts'
import {refusals, safe} from '../http/log.ts'
import {setNewest} from '../util/boundedMap.ts'
import {ClientCounter} from '../lake/index.ts'

/**
 * How long a token the content process refused (401/403) is remembered as not a session: a
 * refused token never becomes live again (tokens are random and issued once), so this only
 * spares a made-up cookie's repeats a query each.
 */
const deadVerdictMs = 5_000
/** Refused tokens remembered at once (a guessed token is one entry, then evicted). */
const maxVerdicts = 256
/** A check is one trivial query over loopback: past this the page renders as a visitor's. */
const checkTimeoutMs = 2_000
/** Checks in flight for one visitor: the owner's preview renders a page or two at a time. */
const maxChecksPerClient = 4
/** Checks in flight in all: past it the page renders as a visitor's and the refusal is logged. */
const maxChecks = 32

/**
 * Preview on a site process (LAKE_URL): the sessions live in the content process's lake. Before
 * rendering a page with drafts, the site asks the lake whether the cookie's token is a live
 * session (a query of `1` with it: 200, or 401 once the session ended), every time: a "live"
 * answer is never reused, so a session ended through any site process (the disable route is
 * answered only once the content process has ended it) renders no draft anywhere afterwards.
 * Preview is the owner's alone, and the check costs one loopback round trip per page (assets
 * are served before it is asked: server/render/handler.ts). Only a refusal is remembered,
 * briefly. Any failure to ask, or a check over its caps, means no preview for that request.
 */
export interface RemotePreview {
  /** The credential to render drafts with, if `token` is a live session now; else undefined. */
  credential(token: string, client: string): Promise<Record<string, string> | undefined>
  /** The session ended through this process (the disable route): spare the next check. */
  ended(token: string): void
}

export function remotePreview(lakeUrl: string): RemotePreview {
  const refused = new Map<string, number>()
  const checking = new ClientCounter()
  let inFlight = 0
  const check = new URL(`/v${apiVersion}/data/query/${defaultDataset}`, lakeUrl)
  check.searchParams.set('query', '1')
  return {
    async credential(token, client) {
      const until = refused.get(token)
      if (until !== undefined) {
        if (until > Date.now()) return undefined
        refused.delete(token)
      }
      const release =
        inFlight < maxChecks ? checking.acquire(client, maxChecksPerClient) : undefined
      if (!release) {
        refusals.refuse(
          client,
          'preview-check-cap',
          `[forward] preview check over its cap for ${client}: rendered as a visitor's page`,
        )
        return undefined
      }
      inFlight++
      const credential = {authorization: `Bearer ${token}`}
      try {
        const response = await fetch(check, {
          // The visitor's address, so the content process counts a made-up token against them
          // (TRUST_PROXY=loopback), not against this site process.
          headers: {...credential, 'x-forwarded-for': client},
          signal: AbortSignal.timeout(checkTimeoutMs),
        })
        await response.body?.cancel()
        if (response.status === 200) return credential
        if (response.status === 401 || response.status === 403)
          setNewest(refused, token, Date.now() + deadVerdictMs, maxVerdicts)
        return undefined
      } catch (error) {
        console.warn(`[forward] could not check a preview session: ${safe(String(error))}`)
        return undefined
      } finally {
        inFlight--
        release()
      }
    },
    ended: (token) => setNewest(refused, token, Date.now() + deadVerdictMs, maxVerdicts),
  }
}
