import styled from 'styled-components'
import type {PostSurroundingsQueryResult} from '../../shared/sanity.types.ts'
import {SubscribeForm} from '../newsletter/SubscribeForm.tsx'
import {PostNavigation} from './PostNavigation.tsx'
import {RelatedPosts} from './RelatedPosts.tsx'

const End = styled.div`
  position: relative;
  z-index: 1;
  display: flex;
  flex-direction: column;
  gap: 2rem;
  max-width: 42rem;
  margin: 3rem auto 0;
  h2 {
    margin: 0 0 1rem;
  }
`

/**
 * Where a post leads on: the subscribe form (when subscriptions are on), the previous and next
 * posts, then related posts of its category.
 */
export function PostEnd({
  category,
  surroundings,
}: {
  category: string | null
  surroundings: PostSurroundingsQueryResult | undefined
}) {
  if (!surroundings) return null
  return (
    <End>
      <SubscribeForm />
      <PostNavigation previous={surroundings.previous} next={surroundings.next} />
      {category && <RelatedPosts category={category} posts={surroundings.related} />}
    </End>
  )
}
