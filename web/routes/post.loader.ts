import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {postBySlugQuery} from '../queries.ts'
import type {PostBySlugQueryResult} from '../../shared/sanity.types.ts'

export interface PostData {
  slug: string
  post: PostBySlugQueryResult
}

/**
 * One post by slug. Absent, or the fetch failed (logged): 'Post not found.' with HTTP 404 on the
 * server (requirements §8). A failure is marked no-store so the render cache never keeps it.
 */
export async function postLoader({params, context}: LoaderFunctionArgs<RouterContextProvider>) {
  const slug = params.id ?? ''
  try {
    const client = await context.get(sanityClientContext)()
    const post = await client.fetch(postBySlugQuery, {slug})
    if (post) return data<PostData>({slug, post})
    return data<PostData>({slug, post: null}, {status: 404})
  } catch (error) {
    console.error(`[post] could not fetch "${slug}"`, error)
    return data<PostData>({slug, post: null}, {status: 404, headers: {'Cache-Control': 'no-store'}})
  }
}
