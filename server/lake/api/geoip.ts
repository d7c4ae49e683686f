import type {Hono} from 'hono'
import {notFound} from '../errors.ts'

/**
 * `GET /v{version}/geoip/country`: Help → Diagnostics asks it (without credentials) which country
 * the caller is in, and reads only `isoCode` (a string, or anything else for "country could not
 * be resolved"; sanity 6.16 `runRequestDiagnostics` in lib/index.js). A local lake has no
 * GeoIP database, and looking addresses up elsewhere would tell a third party who visits, so it
 * always answers that the country is unknown. A constant answer: it reads nothing the client
 * sends, so the edge's limits bound it (docs/studio-protocol.md §b).
 */
export function registerGeoIp(app: Hono): void {
  app.get('/:version/geoip/country', (c) =>
    c.json({isoCode: null}, 200, {'cache-control': 'no-store'}),
  )
  // Anything else under /geoip is the API's 404 (Sanity's JSON), not the site's page.
  app.all('/:version/geoip/*', () => {
    throw notFound('Only GET /geoip/country is served')
  })
}
