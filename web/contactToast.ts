/** How long the thank-you toast stays (requirements §9.3). */
export const toastMs = 4000
export const thankYou = 'Thank you! Your message was sent.'
