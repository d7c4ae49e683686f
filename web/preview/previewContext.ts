import {createContext} from 'react'

/**
 * Preview mode (server/preview/): the page shows the owner's drafts. The server knows it from
 * its render options, the browser from the payload (Document provides it); public pages render
 * with `false` and carry nothing of preview mode: no bar, no `data-sanity` attributes, no
 * visual-editing script.
 */
export const PreviewContext = createContext(false)
