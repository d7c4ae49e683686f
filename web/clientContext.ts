import type {SanityClient} from '@sanity/client'
import {createContext} from 'react-router-dom'

/** How a loader gets the content client: resolved lazily so the browser loads it on demand. */
export type GetClient = () => Promise<SanityClient>

/**
 * Router context carrying the content client: the server sets one pointed at this process's
 * lake per request; the browser sets getBrowserClient (web/browserClient.ts).
 */
export const sanityClientContext = createContext<GetClient>()
