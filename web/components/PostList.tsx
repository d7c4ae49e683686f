import styled from 'styled-components'
import {loadMoreAttribute} from '../boot/boot.ts'
import {tabCategory, type BlogTab} from '../blogTabs.ts'
import {blogPageSize} from '../queries.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'
import {PostCard} from './PostCard.tsx'
import {cardId, usePostPages} from './usePostPages.ts'
import {theme} from './theme.ts'

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr));
  gap: 1rem;
`

const More = styled.button`
  display: block;
  min-height: 44px;
  margin: 1.75rem auto 0;
  padding: 0.7rem 1.6rem;
  border: 2px solid ${theme.accent};
  border-radius: 999px;
  background: ${theme.card};
  color: ${theme.accent};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &[aria-busy='true'] {
    cursor: progress;
  }
`

/**
 * One tab's posts (requirements §4.1). The server renders the first `count` (six, or more after a
 * 'Load More' without JavaScript); 'Load More' is a GET form asking for six more
 * (`/blog?category=…&count=12#card-7`), so it works with no script at all and focus lands on the
 * first new card. With the app, it fetches only the next six from the lake, fetched ahead when the
 * button nears the screen or is pressed, and replaces the address (`?count=`) instead of adding
 * a history entry. Before the app, the boot script does the same (web/boot/boot.ts).
 */
export function PostList({tab, first}: {tab: BlogTab; first: PostPageQueryResult}) {
  const {posts, total, busy, form, loadMore, fetchNext} = usePostPages(tab, first)
  const shown = posts.length
  if (total === 0) return <p>No posts here yet.</p>
  const category = tabCategory(tab)
  return (
    <>
      <Grid>
        {posts.map((post, index) => (
          <PostCard key={post.slug} post={post} linkId={cardId(index + 1)} first={index === 0} />
        ))}
      </Grid>
      {shown < total && (
        <form
          ref={form}
          method="get"
          action={`/blog#${cardId(shown + 1)}`}
          onSubmit={loadMore}
          onPointerDown={fetchNext}
          {...{[loadMoreAttribute]: ''}}
        >
          {category !== null && <input type="hidden" name="category" value={category} />}
          <input type="hidden" name="count" value={shown + blogPageSize} />
          <More type="submit" aria-busy={busy}>
            Load More
          </More>
        </form>
      )}
    </>
  )
}
