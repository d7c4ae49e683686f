import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {blogTabs, tabHref, type BlogTab} from '../blogTabs.ts'
import {theme} from './theme.ts'

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
    color: #fff;
  }
`

/** The category tabs (requirements §2): links, so each tab has an address and works without JS. */
export function BlogTabs({selected}: {selected: BlogTab}) {
  return (
    <nav aria-label="Categories">
      <List>
        {blogTabs.map((tab) => (
          <li key={tab}>
            <Link
              to={tabHref(tab)}
              preventScrollReset
              aria-current={tab === selected ? 'page' : undefined}
            >
              {tab}
            </Link>
          </li>
        ))}
      </List>
    </nav>
  )
}
