/** How long the thank-you toast stays (requirements §9.3). */
export const toastMs = 4000
export const thankYou = 'Thank you! Your message was sent.'

/**
 * The query parameter with which the contact relay sends a native post back to its page
 * (server/contact/sentMarkers.ts): a one-time token, for which the server renders the toast once.
 */
export const sentParam = 'sent'
