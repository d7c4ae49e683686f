import type {SanityClient} from '@sanity/client'
import {previewContentPath} from '../shared/siteConfig.ts'
import {readPayload} from './payload.ts'

let pending: Promise<SanityClient> | undefined

/**
 * The browser's content client, created on first use: @sanity/client (about 37 KB gzip) is a
 * separate chunk fetched only for client-side navigation and 'Load More', not on first load.
 * In preview mode it reads drafts through the site's preview proxy.
 */
export function getBrowserClient(): Promise<SanityClient> {
  pending ??= import('./sanity.client.ts').then(({createSiteClient, createPreviewClient}) => {
    const {site, preview} = readPayload()
    return preview
      ? createPreviewClient(site, `${window.location.origin}${previewContentPath}`)
      : createSiteClient(site, window.location.origin)
  })
  return pending
}
