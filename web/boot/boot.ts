/** Dispatched on `document` once React has hydrated the page (entry.client.tsx). */
export const hydratedEvent = 'site:hydrated'
/** Dispatched on `document` when the boot function has finished changing the page. */
export const bootIdleEvent = 'site:boot-idle'
/** Marks the blog's 'Load More' form and the contact form, which the boot function serves. */
export const loadMoreAttribute = 'data-load-more'
export const contactAttribute = 'data-contact'
/** The class of a toast message (Toast.tsx styles it; its CSS animation hides it after 4000 ms). */
export const toastClass = 'site-toast'
/** On <html> in preview mode (Document.tsx): the app loads at once. */
export const previewAttribute = 'data-preview'
/** Set on <html> by the boot function when a preview page is framed (the Studio's Presentation). */
export const framedAttribute = 'data-framed'

export interface BootOptions {
  /** The app's entry (React, router, styles) and the chunks it imports, fetched in parallel. */
  app: string
  preload: string[]
  hydratedEvent: string
  bootIdleEvent: string
  loadMoreAttribute: string
  contactAttribute: string
  toastClass: string
  toastMs: number
  thankYou: string
  /** The id of the page's payload <script> (payload.ts), which hydration reads. */
  payloadId: string
  /** The contact relay's one-time marker in the address (contactToast.ts). */
  sentParam: string
  previewAttribute: string
  framedAttribute: string
  /** Where a prerendered page reports that it was shown (server/stats/beacon.ts). */
  viewBeacon: string
}
