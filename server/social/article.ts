import {Temporal} from '@js-temporal/polyfill'
import {Article, Create, Hashtag, Image, type Person} from '@fedify/vocab'
import {postBodyHtml} from '../util/postHtml.ts'
import {altOf, imageBuilder, isShown} from '../../shared/imageUrl.ts'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import {absoluteUrl, postPath} from '../../shared/siteUrls.ts'
import type {SharedPost} from './posts.ts'

/** The cover's width in an `Article`: what Mastodon's cards show sharply. */
const coverWidth = 1200
const publicAudience = new URL('https://www.w3.org/ns/activitystreams#Public')

export interface ArticleSite {
  siteUrl: string
  actor: URL
  followers: URL
}

/** A post's public address: the `Article`'s id and url both (the page answers either form). */
export function postUrl(siteUrl: string, slug: string): URL {
  return new URL(absoluteUrl(siteUrl, postPath(slug)))
}

/** A date-only `date` (YYYY-MM-DD) is midnight UTC; anything else is taken as it comes. */
function instant(value: string | null | undefined): Temporal.Instant | null {
  if (!value) return null
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value
  try {
    return Temporal.Instant.from(iso)
  } catch {
    return null
  }
}

/** The hashtag's name: the category without spaces or punctuation, as Mastodon links tags. */
const tagName = (category: string) => category.replace(/[^\p{L}\p{N}_]/gu, '')

/**
 * A post as an ActivityStreams `Article`: title, summary (the excerpt), HTML content, the cover
 * as an image attachment, the URL, the category as a hashtag, published and updated times,
 * addressed to the public and the followers (as Mastodon addresses a public post).
 */
export function postArticle(post: SharedPost, site: ArticleSite): Article {
  const url = postUrl(site.siteUrl, post.slug)
  const images = imageBuilder(resolveSiteConfig({siteUrl: site.siteUrl}), true)
  const cover = isShown(post.cover) ? post.cover : undefined
  const tag = post.category ? tagName(post.category) : ''
  return new Article({
    id: url,
    url,
    attribution: site.actor,
    to: publicAudience,
    cc: site.followers,
    name: post.title ?? post.slug,
    summary: post.excerpt ?? null,
    content: postBodyHtml(post.body, url.href, images),
    mediaType: 'text/html',
    published: instant(post.date) ?? instant(post._updatedAt),
    updated: instant(post._updatedAt),
    attachments: cover
      ? [
          new Image({
            url: new URL(images.image(cover).width(coverWidth).fit('max').url()),
            name: altOf(cover) || null,
          }),
        ]
      : [],
    tags: tag
      ? [
          new Hashtag({
            name: `#${tag}`,
            href: new URL(
              absoluteUrl(
                site.siteUrl,
                `/blog?category=${encodeURIComponent(post.categorySlug ?? post.category ?? '')}`,
              ),
            ),
          }),
        ]
      : [],
  })
}

/** The outbox's entry for a post: its `Create`, with a stable id so pages repeat it alike. */
export function createOf(article: Article, site: ArticleSite, actor?: Person): Create {
  return new Create({
    id: new URL(`${article.id?.href ?? site.siteUrl}#create`),
    actor: actor ?? site.actor,
    object: article,
    to: publicAudience,
    cc: site.followers,
    published: article.published,
  })
}
