import {formatPostDate} from './formatDate.ts'
import {useHydrated} from './useHydrated.ts'

/**
 * A post's date in the browser's locale (spec §2). The server cannot know that locale, so it
 * and the hydrating render show the unambiguous ISO date; the browser's format follows right
 * after hydration, so server and client markup always agree.
 */
export function PostDate({date}: {date: string}) {
  const hydrated = useHydrated()
  return <time dateTime={date}>{hydrated ? formatPostDate(date) : date}</time>
}
