/**
 * The privacy modal's text, which changed after data dirs already held it as a document: the
 * reader statistics (docs/reader-statistics.md) made "no analytics, no tracking" untrue. The
 * start-time upgrade (content/upgrade.ts) may not overwrite what the owner wrote (issue #37), so
 * it replaces the text only where it is byte-identical to a text an earlier seed or upgrade
 * wrote: then the owner never edited it. Any other text is hers; if it still promises "no
 * analytics", the start log and the Studio's validation (schemas/privacyPromise.ts) tell
 * her to review it.
 */
import {footerModals} from '../web/content/site.ts'
import {privacyNeedsReview} from '../schemas/privacyPromise.ts'

/**
 * The privacy paragraphs earlier code wrote into `siteSettings` (the seed and the upgrade, from
 * web/content/site.ts): at commits d307ca7 and ba7ee6c, before the reader statistics came, and
 * at 57c9c86, their first wording (which named neither campaign tags nor not-found addresses).
 */
export const earlierPrivacyTexts: readonly (readonly string[])[] = [
  [
    'No personal data is collected on this site: no cookies, no analytics, no tracking.',
    'Only what you send is kept: a contact message, and, if you subscribe to new posts, your email address with the dates you subscribed and confirmed. It is used for nothing else and shared with no one; the mails carry no tracking pixel and no rewritten links.',
    'Unsubscribing (one click, from any mail) deletes your address; only a salted hash of it is kept, so it is not mailed again by mistake.',
    'Client work is kept strictly confidential.',
    'The writings on this site are mine: please do not reuse them without credit or permission.',
  ],
  [
    'No personal data is collected on this site: no cookies, no tracking, nothing sent to anyone.',
    "The server counts page views as it serves them and keeps only totals per hour: the page, the name of the site a link came from, phone, tablet or desktop, and the browser's name. Readers are counted once a day by a code made from your address, your browser and a secret that is replaced every midnight and never written down, so no one, me included, can tell who read what. Crawlers are not counted, and neither are browsers that send Global Privacy Control.",
    'Only what you send is kept: a contact message, and, if you subscribe to new posts, your email address with the dates you subscribed and confirmed. It is used for nothing else and shared with no one; the mails carry no tracking pixel and no rewritten links.',
    'Unsubscribing (one click, from any mail) deletes your address; only a salted hash of it is kept, so it is not mailed again by mistake.',
    'Client work is kept strictly confidential.',
    'The writings on this site are mine: please do not reuse them without credit or permission.',
  ],
]

const sameText = (a: unknown, b: readonly string[]) =>
  Array.isArray(a) && a.length === b.length && a.every((p, i) => p === b[i])

/** A settings document's (published or draft) privacy paragraphs, as the upgrade reads them. */
export interface FoundPrivacy {
  _id: string
  paragraphs: unknown
}

/**
 * The patches that bring an untouched earlier privacy text up to today's, and the ids whose text
 * the owner wrote herself but which still needs her review.
 */
export function privacyUpgrade(found: FoundPrivacy[]): {patches: unknown[]; review: string[]} {
  const today = [...footerModals.privacy.paragraphs]
  const patches: unknown[] = []
  const review: string[] = []
  for (const {_id, paragraphs} of found) {
    if (sameText(paragraphs, today)) continue
    if (earlierPrivacyTexts.some((earlier) => sameText(paragraphs, earlier)))
      patches.push({patch: {id: _id, set: {'footerModals.privacy.paragraphs': today}}})
    else if (privacyNeedsReview(paragraphs)) review.push(_id)
  }
  return {patches, review}
}
