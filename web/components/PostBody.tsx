import {PortableText, type PortableTextComponents} from '@portabletext/react'
import {useMemo, type ReactNode} from 'react'
import {Link} from 'react-router-dom'
import styled from 'styled-components'
import type {SanityNodeProps} from '../preview/useSanityNode.ts'
import {BodyFigure} from '../images/BodyFigure.tsx'
import {isShown, type PostImage} from '../../shared/imageUrl.ts'
import {headingAnchors} from '../reading/headingAnchors.ts'
import type {PostBySlugQueryResult} from '../../shared/sanity.types.ts'
import {safeHref} from './safeHref.ts'
import {theme} from './theme.ts'

/** A post's body as the post and feed queries select it (images with their assets). */
export type PostBodyValue = NonNullable<NonNullable<PostBySlugQueryResult>['body']>

const Body = styled.div`
  h2,
  h3,
  h4,
  h5,
  h6 {
    scroll-margin-top: 1rem;
  }
  blockquote {
    margin: 1.25em 0;
    padding: 0.25em 1em;
    border-left: 4px solid ${theme.accent};
    color: ${theme.muted};
    font-style: italic;
  }
  code {
    padding: 0.1em 0.3em;
    border-radius: 4px;
    background: ${theme.codeBackground};
    font-family: ${theme.mono};
    font-size: 0.9em;
  }
`

const headingStyles = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const
export type HeadingStyle = (typeof headingStyles)[number]
type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6'
const tags: HeadingTag[] = ['h2', 'h3', 'h4', 'h5', 'h6']

/**
 * The post title is the page's only h1, so body headings start at h2: the heading styles the
 * body uses, in order, become h2, h3, … (capped at h6). A body written with h3 and h4 renders
 * h2 and h3, so the outline never skips a level (axe's heading-order).
 */
export function headingTagFor(
  body: ReadonlyArray<{_type: string; style?: string}>,
): (style: HeadingStyle) => HeadingTag {
  const used = headingStyles.filter((style) => body.some((b) => b.style === style))
  return (style) => {
    const rank = used.indexOf(style)
    return tags[Math.min(rank === -1 ? headingStyles.indexOf(style) : rank, tags.length - 1)]
  }
}

/**
 * Every block style, list and mark of the post schema, and its image blocks. Headings carry their
 * anchor's `id` (web/reading/headingAnchors.ts), which the table of contents links to.
 */
function componentsFor(body: PostBodyValue): PortableTextComponents {
  const tagFor = headingTagFor(body)
  const ids = new Map(headingAnchors(body).map((anchor) => [anchor.key, anchor.id]))
  const heading =
    (style: HeadingStyle) =>
    ({children, value}: {children?: ReactNode; value: {_key?: string}}) => {
      const Tag = tagFor(style)
      return <Tag id={value._key ? ids.get(value._key) : undefined}>{children}</Tag>
    }
  return {
    block: {
      h1: heading('h1'),
      h2: heading('h2'),
      h3: heading('h3'),
      h4: heading('h4'),
      h5: heading('h5'),
      h6: heading('h6'),
      blockquote: ({children}) => <blockquote>{children}</blockquote>,
    },
    marks,
    types: {
      image: ({value}: {value: PostImage}) =>
        isShown(value) ? <BodyFigure image={value} /> : null,
    },
  }
}

const marks: PortableTextComponents['marks'] = {
  underline: ({children}) => <u>{children}</u>,
  'strike-through': ({children}) => <s>{children}</s>,
  link: ({value, children}) => {
    const href = safeHref(value?.href)
    if (!href) return <>{children}</>
    // Root-relative addresses on this site navigate in the app; others are ordinary links
    // (the browser resolves path-relative ones against the page address).
    if (href.startsWith('/') && !href.startsWith('//')) return <Link to={href}>{children}</Link>
    return <a href={href}>{children}</a>
  },
}

/** A post's rich-text body (@portabletext/react). */
export function PostBody({value, ...node}: {value: PostBodyValue} & SanityNodeProps) {
  const components = useMemo(() => componentsFor(value), [value])
  return (
    <Body {...node}>
      <PortableText value={value} components={components} onMissingComponent={false} />
    </Body>
  )
}
