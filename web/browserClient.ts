import type {SanityClient} from '@sanity/client'
import {readPayload} from './payload.ts'

let pending: Promise<SanityClient> | undefined

/**
 * The browser's content client, created on first use: @sanity/client (about 37 KB gzip) is a
 * separate chunk fetched only for client-side navigation and 'Load More', not on first load.
 */
export function getBrowserClient(): Promise<SanityClient> {
  pending ??= import('./sanity.client.ts').then(({createSiteClient}) =>
    createSiteClient(readPayload().site, window.location.origin),
  )
  return pending
}
