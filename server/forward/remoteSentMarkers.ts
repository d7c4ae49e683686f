import {safe} from '../http/log.ts'
import {isMarkerShaped, sentMarkerPath} from '../http/sentMarkers.ts'

/** A toast is not worth holding a page for: past this the page renders without it. */
const takeTimeoutMs = 2_000
/** Takes in flight at once; past it a page renders without its toast rather than queue. */
const maxInFlight = 32

/**
 * The contact relay's toast markers as a site process (LAKE_URL) sees them: issued by the content
 * process, which stores the message, and taken there (server/contact/sentMarkerRoute.ts) when
 * the visitor's browser comes back to a page here with `?sent=`. Any failure means no toast,
 * never a failed page: the message was stored before the redirect.
 */
export function remoteSentMarkers(lakeUrl: string): {take(marker: string): Promise<boolean>} {
  let inFlight = 0
  return {
    async take(marker) {
      if (!isMarkerShaped(marker) || inFlight >= maxInFlight) return false
      inFlight++
      try {
        const url = new URL(sentMarkerPath, lakeUrl)
        url.searchParams.set('marker', marker)
        const response = await fetch(url, {
          method: 'POST',
          signal: AbortSignal.timeout(takeTimeoutMs),
        })
        await response.body?.cancel()
        return response.status === 204
      } catch (error) {
        console.warn(`[forward] could not take a toast marker: ${safe(String(error))}`)
        return false
      } finally {
        inFlight--
      }
    },
  }
}
