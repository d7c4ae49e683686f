import {sentParam, viewBeaconPath} from '../../shared/constants.ts'
import {thankYou, toastMs} from '../contactToast.ts'
import {payloadElementId, scriptSafeJson} from '../payload.ts'
import {
  boot,
  bootIdleEvent,
  contactAttribute,
  framedAttribute,
  hydratedEvent,
  loadMoreAttribute,
  previewAttribute,
  toastClass,
  type BootOptions,
} from './boot.ts'

/** The browser bundle's files, from the Vite manifest: the entry and the chunks it imports. */
export interface ClientAssets {
  entry: string
  preload: string[]
}

/**
 * The inline <script> the server appends to a page that has the app (boot.ts): the boot function
 * as source, called with this build's file names. Appended after React's
 * render, outside the hydrated tree (React 19 skips extra tags at the end of <body>).
 */
export function bootScript(assets: ClientAssets): string {
  return `<script>${bootScriptSource(assets)}</script>`
}

/**
 * The text inside that <script>, exactly: the server hashes it for the pages'
 * Content-Security-Policy (server/http/securityHeaders.ts), so it must not vary per page.
 */
export function bootScriptSource(assets: ClientAssets): string {
  const options: BootOptions = {
    app: assets.entry,
    preload: assets.preload,
    hydratedEvent,
    bootIdleEvent,
    loadMoreAttribute,
    contactAttribute,
    toastClass,
    toastMs,
    thankYou,
    payloadId: payloadElementId,
    sentParam,
    previewAttribute,
    framedAttribute,
    viewBeacon: viewBeaconPath,
  }
  return `(${boot.toString()})(${scriptSafeJson(options)})`
}
