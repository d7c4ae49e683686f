import {PortableText, type PortableTextComponents} from '@portabletext/react'
import type {PortableTextBlock} from '@portabletext/react'
import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {safeHref} from './safeHref.ts'
import {theme} from './theme.ts'

const Body = styled.div`
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
    background: #efe6d6;
    font-family: ${theme.mono};
    font-size: 0.9em;
  }
`

/**
 * Every block style, list and mark of the post schema. The post title is the page's only h1, so
 * body headings render one level down (h1→h2 … h5→h6, h6 stays h6) to keep the outline valid.
 */
const components: PortableTextComponents = {
  block: {
    h1: ({children}) => <h2>{children}</h2>,
    h2: ({children}) => <h3>{children}</h3>,
    h3: ({children}) => <h4>{children}</h4>,
    h4: ({children}) => <h5>{children}</h5>,
    h5: ({children}) => <h6>{children}</h6>,
    h6: ({children}) => <h6>{children}</h6>,
    blockquote: ({children}) => <blockquote>{children}</blockquote>,
  },
  marks: {
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
  },
}

/** A post's rich-text body (@portabletext/react). */
export function PostBody({value}: {value: PortableTextBlock[]}) {
  return (
    <Body>
      <PortableText value={value} components={components} onMissingComponent={false} />
    </Body>
  )
}
