import {shareImage, site} from '../../shared/siteIdentity.ts'
import {absoluteUrl} from '../../shared/siteUrls.ts'

export interface SocialMetaProps {
  /** SITE_URL: every address in the tags is absolute (Open Graph requires it). */
  siteUrl: string
  /** The page's canonical path, e.g. `/services` for the /service route. */
  path: string
  title: string
  description: string
  /** `article` for a blog post, `website` for every other page. */
  type?: 'website' | 'article'
  /** For articles: the post's date (YYYY-MM-DD or ISO), its last change and its category. */
  publishedTime?: string
  modifiedTime?: string
  section?: string
  /** An image of the page's own; the default share image otherwise. */
  image?: {url: string; width: number; height: number; alt: string}
}

/**
 * Open Graph (https://ogp.me) and Twitter card tags, which link previews in chat apps and
 * social networks read from the first HTML response. React 19 hoists each <meta> into <head>.
 */
export function SocialMeta(props: SocialMetaProps) {
  const {siteUrl, path, title, description, type = 'website'} = props
  const image = props.image ?? {...shareImage, url: absoluteUrl(siteUrl, shareImage.path)}
  return (
    <>
      <meta property="og:site_name" content={site.name} />
      <meta property="og:locale" content={site.ogLocale} />
      <meta property="og:type" content={type} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={absoluteUrl(siteUrl, path)} />
      <meta property="og:image" content={image.url} />
      <meta property="og:image:width" content={String(image.width)} />
      <meta property="og:image:height" content={String(image.height)} />
      <meta property="og:image:alt" content={image.alt} />
      {type === 'article' && props.publishedTime ? (
        <meta property="article:published_time" content={props.publishedTime} />
      ) : null}
      {type === 'article' && props.modifiedTime ? (
        <meta property="article:modified_time" content={props.modifiedTime} />
      ) : null}
      {type === 'article' && props.section ? (
        <meta property="article:section" content={props.section} />
      ) : null}
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image.url} />
      <meta name="twitter:image:alt" content={image.alt} />
    </>
  )
}
