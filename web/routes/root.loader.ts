import {siteSettingsQuery} from '../queries.ts'
import {copyLoader} from './copyLoader.ts'

/**
 * Every page's site settings (header, footer, meta). Read once per page: the browser keeps them
 * across navigations (routes.tsx, `shouldRevalidate`). A lake that cannot answer leaves the page
 * on today's copy (web/copy/settings.ts), logged and kept out of the cache.
 */
export const rootLoader = copyLoader(
  {name: 'root', what: 'the site settings'},
  async (client) => ({settings: await client.fetch(siteSettingsQuery)}),
  {settings: null},
)
