import {useRouteLoaderData} from 'react-router-dom'
import type {rootLoader} from '../routes/root.loader.ts'
import {resolveSettings, type SiteSettings} from './settings.ts'

/** The site settings of the page being shown (web/routes/root.loader.ts), with fallbacks. */
export function useSettings(): SiteSettings {
  const loaded = useRouteLoaderData<typeof rootLoader>('root')
  return resolveSettings(loaded?.settings ?? undefined)
}
