import {onFirstInteraction} from './boot/firstInteraction.ts'
import {holdButtonClicks} from './boot/heldClicks.ts'
import {formatLocaleDates} from './boot/localDates.ts'

/**
 * The only script a page loads up front (about 1 KB). The server's HTML is already the complete
 * page: every link navigates and the contact form posts without JavaScript. React, the router
 * and the styles (about 120 KB gzip) hydrate it at the visitor's first interaction, so a visit
 * that only reads never downloads, parses or runs them; button clicks made while they load are
 * replayed once the page is interactive.
 */
formatLocaleDates()
const held = holdButtonClicks()
onFirstInteraction(() => {
  import('./hydrate.tsx')
    .then(({hydrate}) => hydrate())
    .catch((error: unknown) => console.error('The page could not be made interactive:', error))
    .finally(() => held.release())
})
