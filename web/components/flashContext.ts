import {createContext, useContext} from 'react'

/**
 * A one-time message the server renders into this one page: 'contact-sent' after the contact
 * relay has taken a native (no-JavaScript) post (server/contact/sentMarkers.ts). It travels in the
 * payload, so the hydrated page shows what the server rendered.
 */
export type Flash = 'contact-sent'

export const FlashContext = createContext<Flash | null>(null)

export function useFlash(): Flash | null {
  return useContext(FlashContext)
}
