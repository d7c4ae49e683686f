import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {tabHref} from '../blogTabs.ts'
import {PostDate} from '../components/PostDate.tsx'
import {theme} from '../components/theme.ts'
import type {SanityNodeProps} from '../preview/useSanityNode.ts'
import {ReadingTime} from './ReadingTime.tsx'

const Line = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: 0 0.5rem;
  margin: 0 0 1.5rem;
  color: ${theme.muted};
`

interface PostMetaProps {
  date: string | null
  words: number | null
  /** The category's title, and the slug its tab's address carries. */
  category: string | null
  categorySlug: string | null
  /** Preview overlays for the date (web/preview/sanityNode.ts). */
  dateNode: SanityNodeProps
}

/** Under a post's title: its date, reading time and category, the category linking to its tab. */
export function PostMeta({date, words, category, categorySlug, dateNode}: PostMetaProps) {
  const parts = [
    date && <PostDate key="date" date={date} {...dateNode} />,
    words ? <ReadingTime key="time" words={words} /> : null,
    category && categorySlug && (
      <span key="category">
        in <Link to={tabHref(categorySlug)}>{category}</Link>
      </span>
    ),
  ].filter(Boolean)
  if (parts.length === 0) return null
  return (
    <Line>
      {parts.flatMap((part, index) =>
        index === 0
          ? [part]
          : [
              <span key={`dot${index}`} aria-hidden="true">
                ·
              </span>,
              part,
            ],
      )}
    </Line>
  )
}
