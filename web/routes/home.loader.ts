import {homePageQuery, latestPostsQuery} from '../queries.ts'
import type {LatestPostsQueryResult} from '../../shared/sanity.types.ts'
import {copyLoader} from './copyLoader.ts'

const noPosts: LatestPostsQueryResult = []

/**
 * Home: its words and sections (the home document, edited in the Studio) and the newest posts
 * for its lazily shown 'Latest writing' section. The home page must not fail with the lake:
 * without an answer it shows today's copy and says the posts are on their way (logged, and kept
 * out of the cache).
 */
export const homeLoader = copyLoader(
  {name: 'home', what: 'the latest posts'},
  async (client) => {
    const [latest, copy] = await Promise.all([
      client.fetch(latestPostsQuery),
      client.fetch(homePageQuery),
    ])
    return {latest, copy}
  },
  {latest: noPosts, copy: undefined},
)
