import {useEffect, useRef, useState, type FormEvent, type RefObject} from 'react'
import {getBrowserClient} from '../browserClient.ts'
import {tabCategory, tabCountHref, type BlogTab} from '../blogTabs.ts'
import {blogPageSize, postPageQuery} from '../queries.ts'
import {fetchAhead} from '../routes/blogPrefetch.ts'
import type {PostPageQueryResult} from '../../shared/sanity.types.ts'
import type {PostCardData} from './PostCard.tsx'

/** The id of the card at `position` (1-based): 'Load More' without JavaScript lands there. */
export const cardId = (position: number) => `card-${position}`

/**
 * A tab's posts in the app (PostList.tsx): the first page from the server, the next ones from
 * the lake, each fetched once, ahead when the Load More form nears the screen; the address
 * (`?count=`) follows, and focus goes to the first new card when the button goes.
 */
export function usePostPages(tab: BlogTab, first: PostPageQueryResult) {
  const [posts, setPosts] = useState<PostCardData[]>(first.posts)
  const [total, setTotal] = useState(first.total)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const focusCard = useRef<number | null>(null)
  const pageAt = usePageFetcher(tab)

  const shown = posts.length
  useFetchWhenNearing(form, shown, () => pageAt(shown, true))

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
  return {
    posts,
    total,
    busy,
    form,
    loadMore,
    fetchNext: () => pageAt(posts.length, true).catch(() => {}),
  }
}

/** The page starting at `start`, fetched once: ahead of the tap (queued first), or for it. */
function usePageFetcher(tab: BlogTab) {
  const pages = useRef(new Map<number, Promise<PostPageQueryResult>>())
  return (start: number, ahead = false): Promise<PostPageQueryResult> => {
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
}

/**
 * Calls `fetchNext` when the form comes within a screen of the viewport, and again whenever
 * `shown` changes while it still is (observing anew reports the current intersection).
 */
function useFetchWhenNearing(
  form: RefObject<HTMLFormElement | null>,
  shown: number,
  fetchNext: () => Promise<unknown>,
) {
  const latest = useRef(fetchNext)
  useEffect(() => {
    latest.current = fetchNext
  })
  useEffect(() => {
    const element = form.current
    if (!element || !('IntersectionObserver' in window)) return
    const nearing = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current().catch(() => {})
      },
      {rootMargin: '0px 0px 100% 0px'},
    )
    nearing.observe(element)
    return () => nearing.disconnect()
  }, [form, shown])
}
