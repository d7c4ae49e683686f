import styled from 'styled-components'
import {formatPostDate} from '../components/formatDate.ts'
import {theme} from '../components/theme.ts'
import {ReadingTime} from './ReadingTime.tsx'

const Line = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0 0.5rem;
  color: ${theme.muted};
  font-size: 0.95rem;
`

/** A card's date (as the post prints it) and reading time, on one line. */
export function CardMeta({date, words}: {date: string | null; words: number | null | undefined}) {
  if (!date && !words) return null
  return (
    <Line>
      {date && <time dateTime={date}>{formatPostDate(date)}</time>}
      {date && words ? <span aria-hidden="true">·</span> : null}
      <ReadingTime words={words} />
    </Line>
  )
}
