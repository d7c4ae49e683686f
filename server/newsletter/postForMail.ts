import type {Lake} from '../lake/index.ts'
import {excerptLength} from '../../shared/constants.ts'
import {
  altOf,
  imageBuilder,
  isShown,
  type PostImage,
  type ShownImage,
} from '../../shared/imageUrl.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import {publishedPosts} from './mailingDocs.ts'
import type {PostForMail} from './messages.ts'

/** The cover's width in the mail: twice its 560 px box in messages.ts, for sharp high-density screens. */
const coverWidth = 1120

/** A published post as its mail shows it (title, excerpt, link, cover); none if it is gone. */
export async function postForMail(
  lake: Lake,
  siteUrl: string,
  postId: string | undefined,
): Promise<PostForMail | undefined> {
  if (!postId) return undefined
  const post = await lake.query<{
    title: string | null
    slug: string | null
    excerpt: string | null
    cover: PostImage | null
  } | null>(
    `${publishedPosts}[_id == $id][0]{
      title, "slug": slug.current,
      "excerpt": coalesce(excerpt, array::join(string::split(pt::text(body), "")[0...${excerptLength}], "")),
      "cover": mainImage{"asset": asset->{_id}, crop, hotspot, alt, decorative}
    }`,
    {id: postId},
    {authenticated: true},
  )
  if (!post?.slug) return undefined
  const url = `${siteUrl}/blog/${encodeURIComponent(post.slug)}`
  const cover = isShown(post.cover) ? post.cover : undefined
  return {
    title: post.title ?? post.slug,
    excerpt: post.excerpt ?? '',
    url,
    ...(cover ? {cover: {url: coverUrl(siteUrl, cover), alt: altOf(cover)}} : {}),
  }
}

/**
 * The cover as the mail shows it: absolute (a mail has no base address), through the site's one
 * image-URL builder (shared/imageUrl.ts: the Studio's crop applies), at most `coverWidth`
 * pixels wide, in the upload's own format (no `auto=format`: mail clients do not all take WebP).
 */
function coverUrl(siteUrl: string, cover: ShownImage): string {
  const site = resolveSiteConfig({siteUrl})
  return imageBuilder(site, true).image(cover).width(coverWidth).fit('max').url()
}
