import type {LoaderFunctionArgs, RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {latestPostsQuery} from '../queries.ts'
import type {PostCard} from '../types.ts'

/** Home: the newest posts for its lazily shown 'Latest writing' section. */
export async function homeLoader({context}: LoaderFunctionArgs<RouterContextProvider>): Promise<{latest: PostCard[]}> {
  const client = await context.get(sanityClientContext)()
  return {latest: await client.fetch<PostCard[]>(latestPostsQuery)}
}
