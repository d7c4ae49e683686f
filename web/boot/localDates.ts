import {formatPostDate} from '../components/formatDate.ts'

/** Marks a <time> whose text the browser shows in its own locale (PostDate). */
export const localeDateAttribute = 'data-locale-date'

/**
 * Shows every marked date in the browser's locale as soon as the page is parsed, before (and
 * independently of) hydration; PostDate renders the same text once React runs.
 */
export function formatLocaleDates(root: ParentNode = document): void {
  for (const time of root.querySelectorAll<HTMLTimeElement>(`time[${localeDateAttribute}]`)) {
    time.textContent = formatPostDate(time.dateTime)
  }
}
