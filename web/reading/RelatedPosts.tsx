import styled from 'styled-components'
import {PostCard, type PostCardData} from '../components/PostCard.tsx'

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr));
  gap: 1rem;
`

/** Up to three posts of the same category, newest first, as cards (web/queries.ts). */
export function RelatedPosts({category, posts}: {category: string; posts: PostCardData[]}) {
  if (posts.length === 0) return null
  return (
    <section aria-labelledby="related">
      <h2 id="related">More in {category}</h2>
      <Grid>
        {posts.map((post) => (
          <PostCard key={post._id} post={post} headingLevel={3} newTab={false} />
        ))}
      </Grid>
    </section>
  )
}
