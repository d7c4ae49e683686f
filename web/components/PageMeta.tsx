import {siteName} from '../content/site.ts'
import {useSiteConfig} from './useSiteConfig.ts'

export interface PageMetaProps {
  /** The page's own title; the site name is appended. */
  title?: string
  description: string
  /** Path of the canonical address, e.g. '/services' (the spec's canonical for /service). */
  canonicalPath: string
}

/**
 * Every page's head metadata in one place (React 19 hoists these into <head>, on the server too,
 * so crawlers see them in the first response). Open Graph / JSON-LD belong here as well.
 */
export function PageMeta({title, description, canonicalPath}: PageMetaProps) {
  const {siteUrl} = useSiteConfig()
  const fullTitle = title ? `${title} | ${siteName}` : siteName
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={`${siteUrl}${canonicalPath}`} />
    </>
  )
}
