import {Link} from 'react-router-dom'
import styled from 'styled-components'
import {PostCard, type PostCardData} from './PostCard.tsx'
import type {SanityNodeProps} from '../preview/useSanityNode.ts'

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
  gap: 1rem;
`

/** Home's lazily loaded 'Latest writing' section: the newest posts. */
export default function LatestWriting({
  heading,
  headingNode,
  posts,
}: {
  heading: string
  /** In preview: the heading opens Home's field in the Studio. */
  headingNode?: SanityNodeProps
  posts: PostCardData[]
}) {
  return (
    <>
      <h2 {...headingNode}>{heading}</h2>
      {posts.length === 0 ? (
        <p>New posts are on their way.</p>
      ) : (
        <Grid>
          {posts.map((post) => (
            <PostCard key={post.slug} post={post} headingLevel={3} newTab={false} />
          ))}
        </Grid>
      )}
      <p>
        <Link to="/blog">All posts</Link>
      </p>
    </>
  )
}
