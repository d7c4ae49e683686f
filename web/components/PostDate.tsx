import type {SanityNodeProps} from '../preview/useSanityNode.ts'
import {formatPostDate} from './formatDate.ts'

/**
 * A post's date as every page prints it (`27 November 2026`, formatDate.ts): the same text on
 * the server and after hydration, whatever the browser's locale; `datetime` keeps the ISO date.
 */
export function PostDate({date, ...node}: {date: string} & SanityNodeProps) {
  return (
    <time dateTime={date} {...node}>
      {formatPostDate(date)}
    </time>
  )
}
