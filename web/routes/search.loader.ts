import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {countFromSearch} from '../blogTabs.ts'
import {sanityClientContext} from '../clientContext.ts'
import {searchQuery} from '../queries.ts'
import type {PostCardData} from '../components/PostCard.tsx'
import {searchFromInput, snippetOf, type Snippet} from '../searchTerms.ts'

export interface SearchData {
  q: string
  /** The query was cut to its bounds (web/searchTerms.ts). */
  cut: boolean
  count: number
  total: number
  posts: Array<PostCardData & {snippet: Snippet}>
  /** The lake refused or gave up on the search (its time budget): said on the page, status 400. */
  failed: boolean
}

/**
 * `/search?q=…&count=…` (docs/search.md): the first `count` ranked posts (six, more after
 * 'More results'), each with a snippet of its body around the first matched word.
 */
export async function searchLoader({request, context}: LoaderFunctionArgs<RouterContextProvider>) {
  const search = new URL(request.url).searchParams
  const {q, cut} = searchFromInput(search.get('q'))
  const count = countFromSearch(search)
  const empty: SearchData = {q, cut, count, total: 0, posts: [], failed: false}
  if (q === '') return data(empty)
  try {
    const client = await context.get(sanityClientContext)()
    const page = await client.fetch(searchQuery, {q, start: 0, end: count})
    const posts = page.posts.map(({text, ...post}) => ({
      ...post,
      snippet: snippetOf(text ?? '', q),
    }))
    return data<SearchData>({...empty, total: page.total, posts})
  } catch (error) {
    console.error('[search] the lake did not answer', error)
    return data<SearchData>({...empty, failed: true}, {status: 400})
  }
}
