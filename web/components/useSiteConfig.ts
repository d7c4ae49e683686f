import {use} from 'react'
import type {SiteConfig} from '../../shared/siteConfig.ts'
import {SiteConfigContext} from './siteConfigContext.ts'

export function useSiteConfig(): SiteConfig {
  return use(SiteConfigContext)
}
