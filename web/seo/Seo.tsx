import {FeedLinks} from './FeedLinks.tsx'
import {JsonLd} from './JsonLd.tsx'
import {SocialMeta} from './SocialMeta.tsx'
import {ownerGraph, postGraph, type OwnerIdentity} from './structuredData.ts'

export interface SeoPost {
  slug: string
  title: string
  /** YYYY-MM-DD */
  date: string
  /** _updatedAt, if the page's query has it. */
  updatedAt?: string
  category?: string
}

/** A page's own share image (absolute URL); the site's default share card otherwise. */
export interface SeoImage {
  url: string
  width: number
  height: number
  alt: string
}

export interface SeoProps {
  /** SITE_URL, e.g. from useSiteConfig(). */
  siteUrl: string
  /** The page's canonical path. */
  path: string
  title: string
  description: string
  /** Home and Services: the owner and the services as JSON-LD (Person + ProfessionalService). */
  owner?: boolean
  /** A post's page: og:type article with its dates, and BlogPosting + BreadcrumbList JSON-LD. */
  post?: SeoPost
  /** The post's cover, or the settings' share image, as the share card (og:image, JSON-LD). */
  image?: SeoImage
  /** The owner as the site settings describe her (JSON-LD on Home and Services). */
  identity?: OwnerIdentity
}

/**
 * Everything a page offers machines beyond its title, description and canonical link: Open
 * Graph and Twitter card tags, the feed links, and structured data. One element for a page's
 * head-metadata component to render (web/components/PageMeta.tsx).
 */
export function Seo({siteUrl, path, title, description, owner, post, image, identity}: SeoProps) {
  return (
    <>
      <SocialMeta
        siteUrl={siteUrl}
        path={path}
        title={title}
        description={description}
        type={post ? 'article' : 'website'}
        publishedTime={post?.date}
        modifiedTime={post?.updatedAt}
        section={post?.category}
        image={image}
      />
      <FeedLinks siteUrl={siteUrl} />
      {owner ? <JsonLd data={ownerGraph(siteUrl, identity)} /> : null}
      {post ? (
        <JsonLd data={postGraph(siteUrl, {...post, description, image: image?.url})} />
      ) : null}
    </>
  )
}
