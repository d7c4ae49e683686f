/**
 * The answer to a subscribe post (server/newsletter/routes.ts). A native form post is sent on
 * to this site page with a 303 (post/redirect/get: a reload does not post again); a JSON caller
 * gets the same words. They are the same whatever the address's state: they reveal nothing.
 */
export const subscribedPath = '/subscribed'
export const checkInboxTitle = 'Check your inbox'
export const checkInboxMessage =
  'Thank you. If this address can be subscribed, a mail is on its way: open the link in it to confirm. Nothing else will be sent until you do.'
