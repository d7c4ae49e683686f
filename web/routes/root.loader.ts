import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {siteSettingsQuery} from '../queries.ts'

/**
 * Every page's site settings (header, footer, meta). Read once per page: the browser keeps them
 * across navigations (routes.tsx, `shouldRevalidate`). A lake that cannot answer leaves the page
 * on today's copy (web/copy/settings.ts), logged and kept out of the cache.
 */
export async function rootLoader({context}: LoaderFunctionArgs<RouterContextProvider>) {
  try {
    const client = await context.get(sanityClientContext)()
    return data({settings: await client.fetch(siteSettingsQuery)})
  } catch (error) {
    console.error('[root] could not fetch the site settings', error)
    return data({settings: null}, {headers: {'Cache-Control': 'no-store'}})
  }
}
