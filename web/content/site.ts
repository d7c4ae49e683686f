/**
 * The site's fixed copy (requirements §1). Edit here; components only render it. The owner and
 * the site's name are shared with the server's feeds, so they live in shared/siteIdentity.ts.
 */
import {siteName, siteOwner as owner} from '../../shared/siteIdentity.ts'

export {owner, siteName}

/** Default meta description for pages that have no better one. */
export const siteDescription = `${owner.name} is a freelance writer and editor based in ${owner.place}: ghostwriting, creative pieces, blog posts and careful editing.`

export const homeIntro =
  'I write and edit for people who care about words. Whether you need a ghostwritten memoir, a guest post that sounds like you, or a manuscript tightened line by line, I work quietly, carefully and on time — from a desk with a view of the mountains.'

/** The footer's three modals (requirements §1). */
export const footerModals = {
  me: {
    label: 'me',
    title: 'About me',
    paragraphs: [
      `I am ${owner.name}, a freelance writer and editor based in ${owner.place}. This site is where I show my work, share my writing and meet new clients.`,
      'The illustrations on this site are public-domain vintage artwork. Credit: stains and flourishes redrawn after nineteenth-century engravings and ink studies in the public domain.',
    ],
  },
  privacy: {
    label: 'privacy',
    title: 'Privacy',
    paragraphs: [
      'No personal data is collected on this site: no cookies, no tracking, nothing sent to anyone.',
      "The server counts page views as it serves them, with no script and no cookie, and keeps only totals per hour: the page, the name of the site a link came from, a link's campaign tags (utm_source, utm_medium, utm_campaign), phone, tablet or desktop, the browser's name, and addresses on this site that were not found. Feed readers' own reports of their subscriber counts are kept per day. Readers are counted once a day by a code made from your network address, your browser and a secret that is replaced every midnight and never written down; your address, your browser's details and that code are never stored or logged, so no one, me included, can tell who read what. Crawlers are not counted, and neither are browsers that send Global Privacy Control. Nothing is sent to anyone else.",
      'Only what you send is kept: a contact message, and, if you subscribe to new posts, your email address with the dates you subscribed and confirmed. It is used for nothing else and shared with no one; the mails carry no tracking pixel and no rewritten links.',
      'Unsubscribing (one click, from any mail) deletes your address; only a salted hash of it is kept, with the dates you confirmed and left, so it is not mailed again by mistake and the list can be counted over time.',
      'Client work is kept strictly confidential.',
      'The writings on this site are mine: please do not reuse them without credit or permission.',
    ],
  },
  client: {
    label: 'client',
    title: 'For clients',
    paragraphs: [
      'Ordering is simple: connect with me through the contact page and tell me about your project.',
      'Once we have connected, I share the details — scope, timeline, rates and the service agreement — by email.',
    ],
  },
} as const
