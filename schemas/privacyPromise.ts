/**
 * What a privacy text must no longer promise now that the server counts page views
 * (docs/reader-statistics.md): "no analytics". The Studio warns on it (siteSettings.ts) and the
 * start-time upgrade logs it (content/privacyUpgrade.ts) when the owner wrote the text herself,
 * since nothing she wrote is overwritten (issue #37).
 */
const outdatedPromise = /\bno analytics\b/i

/** The warning both show. */
export const privacyReviewMessage =
  'This text says "no analytics", but the site now counts page views (without identifying anyone). Please review it.'

/** A privacy text (its paragraphs) still promises what the statistics made untrue. */
export function privacyNeedsReview(paragraphs: unknown): boolean {
  return (
    Array.isArray(paragraphs) &&
    paragraphs.some((p) => typeof p === 'string' && outdatedPromise.test(p))
  )
}
