import {createContext} from 'react'
import {resolveSiteConfig, type SiteConfig} from '../../shared/siteConfig.ts'

/** The deployment's site config (canonical origin, contact action, …), provided by Document. */
export const SiteConfigContext = createContext<SiteConfig>(
  resolveSiteConfig({siteUrl: 'http://localhost:3000'}),
)
