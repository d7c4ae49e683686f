import type {Hono} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {refusals, safe} from '../http/log.ts'
import {isMarkerShaped, sentMarkerPath, sentMarkers, type SentMarkers} from '../http/sentMarkers.ts'

/**
 * POST /api/contact/sent?marker=…: 204 the first time a live marker is taken, 404 for any other
 * (taken, expired, never issued), 400 for what cannot be a marker. No body is read; the lookup is
 * a map's, so the route costs what any request does. Taking a marker is what a visit of the page
 * with it already did in one process; a marker is 128 random bits, so guessing finds none.
 */
export function registerSentMarkerRoute(app: Hono, markers: SentMarkers = sentMarkers): void {
  app.post(sentMarkerPath, (c) => {
    const marker = c.req.query('marker') ?? ''
    if (!isMarkerShaped(marker)) {
      const client = clientOf(c).key
      refusals.refuse(
        client,
        'sent-marker',
        `[contact] 400 ${safe(c.req.path)} from ${client}: not a marker`,
      )
      return c.json({error: {type: 'badRequest', description: 'Not a marker'}}, 400)
    }
    return c.body(null, markers.take(marker) ? 204 : 404, {'cache-control': 'no-store'})
  })
}
