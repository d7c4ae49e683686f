import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {latestPostsQuery} from '../queries.ts'
import type {LatestPostsQueryResult} from '../../shared/sanity.types.ts'

/**
 * Home: the newest posts for its lazily shown 'Latest writing' section. The home page must not
 * fail with the lake: without posts the section says so (logged, and kept out of the cache).
 */
export async function homeLoader({context}: LoaderFunctionArgs<RouterContextProvider>) {
  try {
    const client = await context.get(sanityClientContext)()
    return data({latest: await client.fetch(latestPostsQuery)})
  } catch (error) {
    console.error('[home] could not fetch the latest posts', error)
    const none: LatestPostsQueryResult = []
    return data({latest: none}, {headers: {'Cache-Control': 'no-store'}})
  }
}
