import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {CardThumbnail} from '../images/CardThumbnail.tsx'
import {isShown} from '../../shared/imageUrl.ts'
import {useSanityNode} from '../preview/useSanityNode.ts'
import type {PostListQueryResult} from '../../shared/sanity.types.ts'
import {CardMeta} from '../reading/CardMeta.tsx'
import {theme} from './theme.ts'

/** One card as every list query returns it (postListQuery, postPageQuery, latestPostsQuery). */
export type PostCardData = PostListQueryResult[number]

const Card = styled.article`
  position: relative;
  display: flex;
  flex-direction: column;
  gap: 0.35rem;
  padding: 1.1rem 1.25rem;
  border: 1px solid ${theme.line};
  border-radius: 10px;
  background: ${theme.card};
  h2,
  h3 {
    margin: 0;
    font-size: 1.3rem;
  }
  h2 a,
  h3 a {
    color: ${theme.ink};
    text-decoration: none;
  }
  h2 a:hover,
  h3 a:hover {
    text-decoration: underline;
  }
  p {
    margin: 0;
  }
`

export interface PostCardProps {
  post: PostCardData
  /** Follows the page's outline. */
  headingLevel?: 2 | 3
  /** The blog list opens posts in a new tab (requirements §2); elsewhere they open in place. */
  newTab?: boolean
  /** An id for the title link: 'Load More' without JavaScript moves focus to it (PostList). */
  linkId?: string
  /** The list's first card: its thumbnail is likely the page's largest element (the LCP). */
  first?: boolean
}

/** A post in a list: cover thumbnail (if any), title linking to the post, date and reading time, excerpt. */
export function PostCard({
  post,
  headingLevel = 2,
  newTab = true,
  linkId,
  first = false,
}: PostCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  // The list queries keep only posts with a slug (defined(slug.current)); TypeGen cannot narrow that.
  const slug = post.slug ?? ''
  const href = `/blog/${encodeURIComponent(slug)}`
  const title = post.title ?? slug
  const node = useSanityNode('post')
  return (
    <Card>
      <Heading {...node(post._id, 'title')}>
        {newTab ? (
          <a id={linkId} href={href} target="_blank" rel="noopener">
            {title}
          </a>
        ) : (
          <Link id={linkId} to={href}>
            {title}
          </Link>
        )}
      </Heading>
      {isShown(post.mainImage) && <CardThumbnail image={post.mainImage} priority={first} />}
      <CardMeta date={post.date} words={post.words} />
      {post.excerpt && <p {...node(post._id, 'excerpt')}>{post.excerpt}</p>}
    </Card>
  )
}
