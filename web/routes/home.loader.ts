import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {homePageQuery, latestPostsQuery} from '../queries.ts'
import type {HomePageQueryResult, LatestPostsQueryResult} from '../../shared/sanity.types.ts'

/**
 * Home: its words and sections (the home document, edited in the Studio) and the newest posts
 * for its lazily shown 'Latest writing' section. The home page must not fail with the lake:
 * without an answer it shows today's copy and says the posts are on their way (logged, and kept
 * out of the cache).
 */
export async function homeLoader({context}: LoaderFunctionArgs<RouterContextProvider>) {
  try {
    const client = await context.get(sanityClientContext)()
    const [latest, copy] = await Promise.all([
      client.fetch(latestPostsQuery),
      client.fetch(homePageQuery),
    ])
    return data({latest, copy})
  } catch (error) {
    console.error('[home] could not fetch the latest posts', error)
    const none: LatestPostsQueryResult = []
    const copy: HomePageQueryResult | undefined = undefined
    return data({latest: none, copy}, {headers: {'Cache-Control': 'no-store'}})
  }
}
