import {useSettings} from '../copy/useSettings.ts'
import {
  altOf,
  imageBuilder,
  shareImageUrl,
  shareSize,
  type ShownImage,
} from '../../shared/imageUrl.ts'
import {Seo, type SeoPost} from '../seo/Seo.tsx'
import {useSiteConfig} from './useSiteConfig.ts'

export interface PageMetaProps {
  /** The page's own title; the site name is appended. */
  title?: string
  description: string
  /** Path of the canonical address, e.g. '/services' (the spec's canonical for /service). */
  canonicalPath: string
  /** Home and Services: the owner and the services as JSON-LD. */
  owner?: boolean
  /** A post's page: Open Graph article tags, BlogPosting and BreadcrumbList JSON-LD. */
  post?: SeoPost & {cover?: ShownImage}
}

/**
 * Every page's head metadata in one place (React 19 hoists these into <head>, on the server too,
 * so crawlers see them in the first response). Open Graph / JSON-LD belong here as well.
 */
export function PageMeta({title, description, canonicalPath, owner, post}: PageMetaProps) {
  const site = useSiteConfig()
  const settings = useSettings()
  const {siteName} = settings
  const {siteUrl} = site
  const cover = post?.cover
  const shared = settings.shareImage
  // A decorative cover has no alt of its own; the share card then names the post (or the site).
  const image = cover
    ? {url: shareImageUrl(site, cover), ...shareSize, alt: altOf(cover) || post.title}
    : shared
      ? {url: shareImageUrl(site, shared), ...shareSize, alt: altOf(shared) || siteName}
      : undefined
  // The owner as the settings describe her, for the JSON-LD of Home and Services (issue #37).
  const identity = {
    siteName,
    name: settings.ownerName,
    jobTitle: settings.ownerTitle,
    region: settings.place,
    sameAs: settings.socialLinks.map((link) => link.url).filter((url) => /^https?:/i.test(url)),
    ...(settings.portrait
      ? {portrait: imageBuilder(site, true).image(settings.portrait).width(800).url()}
      : {}),
    ...(shared ? {image: shareImageUrl(site, shared)} : {}),
  }
  const fullTitle = title ? `${title} | ${siteName}` : siteName
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={`${siteUrl}${canonicalPath}`} />
      <Seo
        siteUrl={siteUrl}
        path={canonicalPath}
        title={title ?? siteName}
        description={description}
        owner={owner}
        post={post}
        image={image}
        identity={identity}
      />
    </>
  )
}
