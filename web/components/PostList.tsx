import {useState} from 'react'
import styled from 'styled-components'
import {getBrowserClient} from '../browserClient.ts'
import {tabCategory, type BlogTab} from '../blogTabs.ts'
import {blogPageSize, postPageQuery} from '../queries.ts'
import type {PostPageQueryResult} from '../sanity.types.ts'
import {PostCard, type PostCardData} from './PostCard.tsx'
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
  &:disabled {
    cursor: progress;
  }
`

/**
 * One tab's posts: the server's first page, then 'Load More' fetches the next six from the lake
 * in the browser; the button disappears once the whole tab is visible (requirements §4). Rendered with
 * `key={tab}`, so changing tab starts again at six.
 */
export function PostList({tab, first}: {tab: BlogTab; first: PostPageQueryResult}) {
  const [posts, setPosts] = useState<PostCardData[]>(first.posts)
  const [total, setTotal] = useState(first.total)
  const [busy, setBusy] = useState(false)

  async function loadMore() {
    setBusy(true)
    try {
      const client = await getBrowserClient()
      const next = await client.fetch(postPageQuery, {
        category: tabCategory(tab),
        start: posts.length,
        end: posts.length + blogPageSize,
      })
      if (import.meta.env.DEV) console.log('[blog] posts', next.posts)
      setPosts((shown) => [...shown, ...next.posts])
      setTotal(next.total)
    } catch (error) {
      console.error('[blog] could not load more posts', error)
    } finally {
      setBusy(false)
    }
  }

  if (total === 0) return <p>No posts here yet.</p>
  return (
    <>
      <Grid>
        {posts.map((post) => (
          <PostCard key={post.slug} post={post} />
        ))}
      </Grid>
      {posts.length < total && (
        <More type="button" onClick={loadMore} disabled={busy} aria-busy={busy}>
          Load More
        </More>
      )}
    </>
  )
}
