import {readingTimeLabel} from './readingTime.ts'

/** "6 min read" beside a post's date, or nothing for a post without words. */
export function ReadingTime({words}: {words: number | null | undefined}) {
  const label = readingTimeLabel(words)
  return label ? <span>{label}</span> : null
}
