import type {HydrationState} from 'react-router-dom'
import type {Flash} from './components/flashContext.ts'
import type {SiteConfig} from '../shared/siteConfig.ts'

/** What the server hands the browser in the page: site config and the router's loader data. */
export interface Payload {
  site: SiteConfig
  hydrationData: HydrationState
  /** A one-time message rendered into this page (components/flashContext.ts). */
  flash?: Flash
  /** Preview mode (server/preview/): drafts shown, the app loaded at once, content via the proxy. */
  preview?: true
}

export const payloadElementId = 'site-payload'

/** JSON safe inside an inline <script>: `<` escaped so no tag can close it. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** The payload for its inline <script type="application/json">. */
export function serializePayload(payload: Payload): string {
  return scriptSafeJson(payload)
}

let cached: {raw: string; payload: Payload} | undefined

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function isPayload(value: unknown): value is Payload {
  return isObject(value) && isObject(value.site) && isObject(value.hydrationData)
}

/** Reads the server's payload from the page (browser only). */
export function readPayloadRaw(): {raw: string; payload: Payload} {
  if (cached) return cached
  const raw = document.getElementById(payloadElementId)?.textContent
  if (!raw) throw new Error(`#${payloadElementId} is missing from the page`)
  // Our own server wrote it (entry.server.tsx): a shallow check catches a page from elsewhere.
  const payload: unknown = JSON.parse(raw)
  if (!isPayload(payload)) throw new Error(`#${payloadElementId} is not the site's payload`)
  cached = {raw, payload}
  return cached
}

export function readPayload(): Payload {
  return readPayloadRaw().payload
}
