import styled from 'styled-components'
import {theme} from '../components/theme.ts'
import {headingTagFor} from '../components/PostBody.tsx'
import {tableOfContentsMinimum, type HeadingAnchor} from './headingAnchors.ts'

const Box = styled.nav`
  margin: 0 0 2rem;
  padding: 1rem 1.25rem;
  border: 1px solid ${theme.line};
  border-radius: 10px;
  background: ${theme.card};
  > p {
    margin: 0 0 0.5rem;
    font-family: ${theme.serif};
    font-weight: 700;
  }
  ol {
    margin: 0;
    padding-left: 1.25rem;
  }
  li {
    margin: 0.2rem 0;
  }
  li[data-depth='1'] {
    margin-left: 1.25rem;
  }
  li[data-depth='2'] {
    margin-left: 2.5rem;
  }
`

/**
 * The table of contents of a post with `tableOfContentsMinimum` headings or more: a link to each
 * heading's anchor, indented by its level in the page (plain fragment links: no script needed).
 */
export function TableOfContents({
  anchors,
  body,
}: {
  anchors: HeadingAnchor[]
  body: ReadonlyArray<{style?: string}>
}) {
  if (anchors.length < tableOfContentsMinimum) return null
  const tagFor = headingTagFor(body)
  return (
    <Box aria-labelledby="contents">
      <p id="contents">Contents</p>
      <ol>
        {anchors.map((anchor) => {
          // h2 is the top level of a body (the title is the h1); deeper levels are indented.
          const depth = Math.min(2, Number(tagFor(anchor.style).slice(1)) - 2)
          return (
            <li key={anchor.key} data-depth={depth}>
              <a href={`#${anchor.id}`}>{anchor.text}</a>
            </li>
          )
        })}
      </ol>
    </Box>
  )
}
