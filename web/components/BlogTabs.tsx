import {useEffect} from 'react'
import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {latestTab, tabHref, type BlogTab} from '../blogTabs.ts'
import {blogPageSize} from '../queries.ts'
import type {BlogCategory} from '../routes/blogCategories.ts'
import {prefetchTab} from '../routes/blogPrefetch.ts'
import {theme} from './theme.ts'
import {useSanityNode} from '../preview/useSanityNode.ts'

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0 0 1.5rem;
  padding: 0;
  list-style: none;
  a {
    display: inline-block;
    padding: 0.45rem 0.95rem;
    border: 1px solid ${theme.line};
    border-radius: 999px;
    background: ${theme.card};
    color: ${theme.ink};
    text-decoration: none;
  }
  a[aria-current='page'] {
    border-color: ${theme.accent};
    background: ${theme.accent};
    color: ${theme.onAccent};
  }
`

/**
 * The category tabs (requirements §2): Latest, then the categories the owner made, in her order.
 * Links, so each tab has an address and works without JS.
 */
export function BlogTabs({selected, categories}: {selected: BlogTab; categories: BlogCategory[]}) {
  const tabs: BlogCategory[] = [{slug: latestTab, title: latestTab}, ...categories]
  const node = useSanityNode('category')
  // Once the app runs (effects run only in the browser), the other tabs' first pages are fetched
  // while the browser is idle, so a tap on a tab shows it without a round trip (issue #12).
  useEffect(() => {
    const ahead = () => {
      for (const {slug} of categories) if (slug !== selected) prefetchTab(slug, blogPageSize)
      if (selected !== latestTab) prefetchTab(latestTab, blogPageSize)
    }
    if (!('requestIdleCallback' in window)) return void setTimeout(ahead, 500)
    const idle = requestIdleCallback(ahead, {timeout: 2000})
    return () => cancelIdleCallback(idle)
  }, [selected, categories])
  return (
    <nav aria-label="Categories">
      <List>
        {tabs.map(({slug, title, id}) => (
          <li key={slug}>
            <Link
              to={tabHref(slug)}
              preventScrollReset
              onPointerDown={() => prefetchTab(slug, blogPageSize)}
              aria-current={slug === selected ? 'page' : undefined}
              {...node(id, 'title')}
            >
              {title}
            </Link>
          </li>
        ))}
      </List>
    </nav>
  )
}
