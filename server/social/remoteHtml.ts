import sanitizeHtml from 'sanitize-html'

/**
 * Remote HTML (a reply's content) made safe to store and show: an allow-list of what a fediverse
 * post is made of (paragraphs, line breaks, links, mentions and hashtags as Mastodon marks them),
 * through sanitize-html, a maintained library; everything else is dropped, text kept. Links
 * are http(s) only and marked `nofollow ugc`, and no remote image is ever kept (readers'
 * browsers never fetch from the remote server).
 */
export function sanitizeRemoteHtml(html: string): string {
  return sanitizeHtml(html.slice(0, 100_000), {
    allowedTags: ['p', 'br', 'a', 'span'],
    allowedAttributes: {a: ['href', 'class', 'rel'], span: ['class']},
    allowedClasses: {a: ['mention', 'hashtag', 'u-url'], span: ['h-card']},
    allowedSchemes: ['http', 'https'],
    allowProtocolRelative: false,
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', {rel: 'nofollow ugc noopener'}),
    },
  })
}
