import {toPlainText} from '@portabletext/toolkit'
import {escapeHTML} from '@portabletext/to-html'
import {Feed} from 'feed'
import {derivedExcerpt} from '../../shared/constants.ts'
import type {SiteConfig} from '../../shared/siteConfig.ts'
import {imageBuilder} from '../../shared/imageUrl.ts'
import {feedPaths, owner, site} from '../../shared/siteIdentity.ts'
import {absoluteUrl, postPath} from '../../shared/siteUrls.ts'
import type {FeedPost} from './content.ts'
import {coverEnclosureUrl} from './coverSizes.ts'
import {postBodyHtml} from '../util/postHtml.ts'
import {cdataText, stripForbiddenXmlChars} from './xmlText.ts'

/** How many of the newest posts a feed carries, in full. */
export const feedSize = 20

/**
 * A post's summary: its own excerpt when written (feed readers show it beside the title, as the
 * site's cards do; requirements §3.3), otherwise the post page's meta description, derived by
 * the one rule in shared/constants.ts.
 */
export function postSummary(post: Pick<FeedPost, 'excerpt' | 'body'>): string {
  if (post.excerpt?.trim()) return post.excerpt.trim()
  return derivedExcerpt(Array.isArray(post.body) ? toPlainText(post.body) : '')
}

/** When a post was published: its `date` (a calendar day, taken as midnight UTC) or else its last change. */
export function publishedAt(post: Pick<FeedPost, 'date' | '_updatedAt'>): Date {
  const day =
    post.date && /^\d{4}-\d{2}-\d{2}$/.test(post.date)
      ? new Date(`${post.date}T00:00:00Z`)
      : undefined
  return day && !Number.isNaN(day.getTime()) ? day : new Date(post._updatedAt)
}

export type FeedFormat = 'rss' | 'atom'

/**
 * A post's category as a feed carries it: the title of its category document (any the owner
 * made, issue #37). The feed package writes Atom's category as an attribute without escaping
 * `<`, so a title with one (which XML forbids in an attribute) is left out rather than break
 * the feed; `&` and quotes it escapes.
 */
function feedCategory(value: string | null | undefined): string | undefined {
  const name = stripForbiddenXmlChars(value ?? '').trim()
  return name !== '' && !name.includes('<') ? name : undefined
}

/**
 * A feed of the newest posts with their full content and absolute links from SITE_URL; body
 * images as absolute `<img>`, the cover as the item's enclosure, with its byte length from
 * `coverBytes` (coverSizes.ts). RSS 2.0 requires that length, so a cover whose length is not
 * known is left out of RSS; Atom's is optional, so the link is kept without it.
 * `updated` is the newest change among the posts, so the output only changes with content.
 * Atom's title and summary are declared `type="html"` by the feed package, and RSS readers
 * read a description as HTML, so those carry escaped text; RSS titles are plain text.
 * The owner is the feed's author (Atom requires one); RSS items get none, since RSS's
 * <author> must be an email address and the owner's is not published.
 * The feed stays well-formed XML for any title or body: characters XML forbids are dropped and
 * every `]]>` in a CDATA field is split (xmlText.ts).
 */
export function renderFeed(
  posts: FeedPost[],
  config: SiteConfig,
  format: FeedFormat,
  now: () => Date = () => new Date(),
  coverBytes: ReadonlyMap<string, number> = new Map(),
): string {
  const {siteUrl} = config
  const images = imageBuilder(config, true)
  // Forbidden characters go before `]]>` is looked for: `]\u0001]>` must not become `]]>` later.
  const cdata = (text: string) => cdataText(stripForbiddenXmlChars(text))
  const title = (text: string) => cdata(format === 'atom' ? escapeHTML(text) : text)
  const newest = posts.map((post) => Date.parse(post._updatedAt)).filter((t) => !Number.isNaN(t))
  const home = absoluteUrl(siteUrl, '/')
  const feed = new Feed({
    id: home,
    title: site.blogTitle,
    description: site.blogDescription,
    link: absoluteUrl(siteUrl, '/blog'),
    language: site.language,
    updated: newest.length ? new Date(Math.max(...newest)) : now(),
    generator: false,
    feedLinks: {
      rss: absoluteUrl(siteUrl, feedPaths.rss),
      atom: absoluteUrl(siteUrl, feedPaths.atom),
    },
    author: {name: owner.name, link: home},
    copyright: `© ${owner.name}. Not to be reused without credit or permission.`,
  })
  for (const post of posts) {
    // The query keeps only posts with a slug; TypeGen cannot narrow defined(slug.current).
    if (!post.slug) continue
    const url = absoluteUrl(siteUrl, postPath(post.slug))
    const cover = coverEnclosureUrl(config, post)
    const length = cover === undefined ? undefined : coverBytes.get(cover)
    const enclosure =
      cover === undefined || (length === undefined && format === 'rss')
        ? undefined
        : {url: cover, type: 'image/jpeg', ...(length === undefined ? {} : {length})}
    const category = feedCategory(post.category)
    feed.addItem({
      title: title(post.title?.trim() || post.slug),
      id: url,
      link: url,
      date: new Date(post._updatedAt),
      published: publishedAt(post),
      description: cdata(escapeHTML(postSummary(post))),
      content: cdata(postBodyHtml(post.body, url, images)),
      // The cover as the item's enclosure (RSS) or enclosure link (Atom): the share card's crop.
      image: enclosure,
      category: category === undefined ? undefined : [{name: category, term: category}],
    })
  }
  // And the rest (categories, slugs in links), which the XML writer escapes as text or attributes.
  return stripForbiddenXmlChars(format === 'atom' ? feed.atom1() : feed.rss2())
}
