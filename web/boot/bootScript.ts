import {sentParam, viewBeaconPath} from '../../shared/constants.ts'
import {thankYou, toastMs} from '../contactToast.ts'
import {payloadElementId, scriptSafeJson} from '../payload.ts'
import {appOnIntent} from './appOnIntent.ts'
import {
  bootIdleEvent,
  contactAttribute,
  framedAttribute,
  hydratedEvent,
  loadMoreAttribute,
  previewAttribute,
  toastClass,
  type BootOptions,
} from './boot.ts'
import {bootBusy} from './busy.ts'
import {contactByFetch} from './contactSend.ts'
import {trapDialogFocus} from './dialogFocus.ts'
import {loadMoreInPlace} from './loadMore.ts'
import {nextPages, pageFetcher} from './nextPages.ts'
import {pageArrival} from './pageArrival.ts'

/** The browser bundle's files, from the Vite manifest: the entry and the chunks it imports. */
export interface ClientAssets {
  entry: string
  preload: string[]
}

/**
 * The only JavaScript a page runs up front. The server inlines it at the end of <body>, so it
 * runs before the first paint with no request: the boot parts below as source, called with this
 * build's options, so each must refer to nothing outside itself.
 *
 * The server's HTML is the complete page and its first taps need no app (docs/site.md): the menu
 * is a native popover, the footer modals native <dialog>s opened by invoker commands, 'Load More'
 * a GET form and the contact form a POST form. The parts make them as quick as the app: focus
 * kept inside an open modal (dialogFocus.ts); 'Load More' fetched ahead and added in place
 * (nextPages.ts, loadMore.ts); the contact form posted by fetch with its toast (contactSend.ts).
 * Once the app hydrates (`<html data-hydrated>`), React serves the forms and they step aside;
 * while they change the page they mark `<html data-boot-busy>` and the app waits (busy.ts). The
 * app itself is imported on the visitor's first interaction (appOnIntent.ts); before all, a page
 * counts its prerendered view and drops the relay's used marker (pageArrival.ts).
 */
const bootParts = [
  `const busy = (${bootBusy.toString()})(options)`,
  `;(${pageArrival.toString()})(options)`,
  `;(${trapDialogFocus.toString()})()`,
  `const pages = (${nextPages.toString()})(options, busy, (${pageFetcher.toString()})())`,
  `;(${loadMoreInPlace.toString()})(options, busy, pages)`,
  `;(${contactByFetch.toString()})(options, busy)`,
  `;(${appOnIntent.toString()})(options)`,
].join('\n')

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
  return `((options) => {\n${bootParts}\n})(${scriptSafeJson(options)})`
}
