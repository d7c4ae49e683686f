/**
 * Words a reader reads in a minute: the usual figure for prose on a screen (Medium and the
 * blog themes that show reading time use 200-265).
 */
export const wordsPerMinute = 230

/** Whole minutes to read `words` words, at least 1 for any text; null when there is none. */
export function readingMinutes(words: number | null | undefined): number | null {
  if (!words || words <= 0) return null
  return Math.max(1, Math.round(words / wordsPerMinute))
}

/** "6 min read", or null for a post with no words. */
export function readingTimeLabel(words: number | null | undefined): string | null {
  const minutes = readingMinutes(words)
  return minutes === null ? null : `${minutes} min read`
}
