import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {postBySlugQuery, postSurroundingsQuery} from '../queries.ts'
import {redirectFor} from './redirectFor.ts'
import type {
  PostBySlugQueryResult,
  PostSocialQueryResult,
  PostSurroundingsQueryResult,
} from '../../shared/sanity.types.ts'

export interface PostData {
  slug: string
  post: PostBySlugQueryResult
  /** Previous, next and related posts (web/reading/); null without a post. */
  surroundings?: PostSurroundingsQueryResult
  /** Approved comments and like/boost counts from the social web (web/reading/PostComments.tsx). */
  social?: PostSocialQueryResult
}

/**
 * One post by slug, and the posts around it; a post that moved redirects. Absent, or the fetch failed (logged): 'Post not found.' with HTTP 404 on the
 * server (requirements §8). A failure is marked no-store so the render cache never keeps it.
 */
export async function postLoader({params, context}: LoaderFunctionArgs<RouterContextProvider>) {
  const slug = params.id ?? ''
  try {
    const client = await context.get(sanityClientContext)()
    // Two at once (the surroundings, with the social web's comments, are found from the slug
    // too): a visitor's browser may have two anonymous queries in flight
    // (server/lake/api/query.ts), so a page needs no more.
    const [post, surroundings] = await Promise.all([
      client.fetch(postBySlugQuery, {slug}),
      client.fetch(postSurroundingsQuery, {slug}),
    ])
    if (post) return data<PostData>({slug, post, surroundings, social: surroundings?.social})
    // A slug that changed, or a redirect the owner made, answers 301 to where the post is now.
    const moved = await redirectFor(client, `/blog/${encodeURIComponent(slug)}`)
    if (moved) return moved
    return data<PostData>({slug, post: null}, {status: 404})
  } catch (error) {
    console.error(`[post] could not fetch "${slug}"`, error)
    return data<PostData>({slug, post: null}, {status: 404, headers: {'Cache-Control': 'no-store'}})
  }
}
