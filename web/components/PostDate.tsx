import {localeDateAttribute} from '../boot/boot.ts'
import type {SanityNodeProps} from '../preview/useSanityNode.ts'
import {formatPostDate} from './formatDate.ts'
import {useHydrated} from './useHydrated.ts'

/**
 * A post's date in the browser's locale (requirements §2). The server cannot know that locale, so it
 * renders the unambiguous ISO date and marks the element; the boot script (boot/boot.ts)
 * formats it in the browser before React runs, and React keeps that text while hydrating (the
 * one expected difference, hence suppressHydrationWarning) and renders the same after.
 */
export function PostDate({date, ...node}: {date: string} & SanityNodeProps) {
  const hydrated = useHydrated()
  return (
    <time dateTime={date} {...{[localeDateAttribute]: ''}} {...node} suppressHydrationWarning>
      {hydrated ? formatPostDate(date) : date}
    </time>
  )
}
