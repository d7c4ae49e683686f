import type {Hono} from 'hono'

/**
 * Answers for what the Studio asks a hosted project but a local lake does not have: onboarding
 * journeys, telemetry (always denied, batches dropped), protocol and version checks, the CORS
 * self-check. Each is harmless and keeps the Studio from logging errors (docs/studio-protocol.md §b).
 */
export function registerHostedOnlyAnswers(app: Hono): void {
  app.get('/:version/journey/announcements', (c) => c.json([]))
  app.get('/:version/journey/*', (c) => c.json({}))
  app.get('/:version/intake/telemetry-status', (c) => c.json({status: 'denied'}))
  // Telemetry consent is denied above; whatever still arrives is dropped unread.
  app.post('/:version/intake/*', (c) => c.json({}))
  app.get('/:version/ping', (c) => c.json('PONG'))
  app.get('/:version/help', (c) => c.json({}))
  app.get('/:version/check/cors', (c) => c.json({isCorsOriginAllowed: true}))
}
