import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {theme} from '../components/theme.ts'
import type {PostSurroundingsQueryResult} from '../../shared/sanity.types.ts'

type Neighbour = NonNullable<PostSurroundingsQueryResult>['previous']

const Nav = styled.nav`
  ul {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
    gap: 1rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  a {
    display: block;
    min-height: 44px;
    padding: 0.75rem 1rem;
    border: 1px solid ${theme.line};
    border-radius: 10px;
    background: ${theme.card};
    text-decoration: none;
  }
  a:hover span:last-child {
    text-decoration: underline;
  }
  span {
    display: block;
  }
  span:first-child {
    color: ${theme.muted};
    font-size: 0.9rem;
  }
  li.next {
    text-align: end;
  }
`

function NeighbourLink({post, rel, label}: {post: Neighbour; rel: 'prev' | 'next'; label: string}) {
  if (!post?.slug) return null
  return (
    <li className={rel}>
      <Link to={`/blog/${encodeURIComponent(post.slug)}`} rel={rel}>
        <span>{label}</span>
        <span>{post.title ?? post.slug}</span>
      </Link>
    </li>
  )
}

/** The previous (older) and next (newer) posts by date, at the end of a post. */
export function PostNavigation({previous, next}: {previous: Neighbour; next: Neighbour}) {
  if (!previous?.slug && !next?.slug) return null
  return (
    <Nav aria-label="Previous and next posts">
      <ul>
        <NeighbourLink post={previous} rel="prev" label="← Previous post" />
        <NeighbourLink post={next} rel="next" label="Next post →" />
      </ul>
    </Nav>
  )
}
