import {useEffect, useRef, useState, type FormEvent} from 'react'
import styled from 'styled-components'
import {loadMoreAttribute} from '../boot/boot.ts'
import {getBrowserClient} from '../browserClient.ts'
import {tabCategory, tabCountHref, type BlogTab} from '../blogTabs.ts'
import {blogPageSize, postPageQuery} from '../queries.ts'
import {fetchAhead} from '../routes/blogPrefetch.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'
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
  &[aria-busy='true'] {
    cursor: progress;
  }
`

/** The id of the card at `position` (1-based): 'Load More' without JavaScript lands there. */
const cardId = (position: number) => `card-${position}`

/**
 * One tab's posts (requirements §4.1). The server renders the first `count` (six, or more after a
 * 'Load More' without JavaScript); 'Load More' is a GET form asking for six more
 * (`/blog?category=…&count=12#card-7`), so it works with no script at all and focus lands on the
 * first new card. With the app, it fetches only the next six from the lake, fetched ahead when the
 * button nears the screen or is pressed, and replaces the address (`?count=`) instead of adding
 * a history entry. Before the app, the boot script does the same (web/boot/boot.ts).
 */
export function PostList({tab, first}: {tab: BlogTab; first: PostPageQueryResult}) {
  const [posts, setPosts] = useState<PostCardData[]>(first.posts)
  const [total, setTotal] = useState(first.total)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const pages = useRef(new Map<number, Promise<PostPageQueryResult>>())
  const focusCard = useRef<number | null>(null)

  /** The page starting at `start`, fetched once: ahead of the tap (queued first), or for it. */
  function pageAt(start: number, ahead = false): Promise<PostPageQueryResult> {
    let page = pages.current.get(start)
    if (!page) {
      const fetchPage = () =>
        getBrowserClient().then((client) =>
          client.fetch(postPageQuery, {
            category: tabCategory(tab),
            start,
            end: start + blogPageSize,
          }),
        )
      page = ahead ? fetchAhead(fetchPage, true) : fetchPage()
      page.catch(() => pages.current.delete(start))
      pages.current.set(start, page)
    }
    return page
  }

  const shown = posts.length
  useEffect(() => {
    const element = form.current
    if (!element || !('IntersectionObserver' in window)) return
    const nearing = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) pageAt(shown, true).catch(() => {})
      },
      {rootMargin: '0px 0px 100% 0px'},
    )
    nearing.observe(element)
    return () => nearing.disconnect()
    // pageAt reads only refs and the tab, which keys this component.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown])

  useEffect(() => {
    if (focusCard.current === null) return
    document.getElementById(cardId(focusCard.current))?.focus()
    focusCard.current = null
  }, [shown])

  async function loadMore(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    setBusy(true)
    try {
      const next = await pageAt(shown)
      if (import.meta.env.DEV) console.log('[blog] posts', next.posts)
      // When the button goes, focus goes to the first new card rather than to the page.
      if (shown + next.posts.length >= next.total && next.posts.length > 0)
        focusCard.current = shown + 1
      setPosts((visible) => [...visible, ...next.posts])
      setTotal(next.total)
      // Keep React Router's own state in the entry: only the address changes.
      window.history.replaceState(window.history.state, '', tabCountHref(tab, shown + blogPageSize))
    } catch (error) {
      console.error('[blog] could not load more posts', error)
    } finally {
      setBusy(false)
    }
  }

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
          onPointerDown={() => pageAt(shown, true).catch(() => {})}
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
