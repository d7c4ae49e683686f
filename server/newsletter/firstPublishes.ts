import type {Lake} from '../lake/index.ts'
import {
  author,
  mailingId,
  publishedPosts,
  stateId,
  type Mailing,
  type MailingStatus,
  type PublishedPost,
} from './mailingDocs.ts'

export interface FirstPublishOptions {
  now: Date
  /** NEWSLETTER_GRACE_MINUTES, in ms: how long a first publish waits before it is mailed. */
  graceMs: number
  /** When this process's newsletter started (ms): the first pass's back-catalogue line. */
  startedAt: number
}

/**
 * New first publishes become mailings (`scheduled`, due after the grace period); unpublishes and
 * `newsletter: false` within the grace period stop them. One transaction; run again, it changes
 * nothing.
 */
export async function noticeFirstPublishes(
  lake: Lake,
  {now, graceMs, startedAt}: FirstPublishOptions,
): Promise<void> {
  const query = <T>(groq: string) => lake.query<T>(groq, {}, {authenticated: true})
  const posts = await query<PublishedPost[]>(
    `${publishedPosts}{_id, _updatedAt, title, "slug": slug.current, newsletter}`,
  )
  const mailings = await query<Mailing[]>('*[_type == "newsletterIssue"]')
  const known = new Map(mailings.map((m) => [m.postId, m]))
  // The first pass ever: the posts already out when the newsletter started are the back
  // catalogue, not news (one published a moment later is).
  const first = !lake.getDocument(stateId)
  const backCatalogue = (post: PublishedPost) => first && Date.parse(post._updatedAt) < startedAt
  const creates = posts
    .filter((post) => !known.has(post._id))
    .map((post): Mailing => {
      const status: MailingStatus = backCatalogue(post)
        ? 'existing'
        : post.newsletter === false
          ? 'off'
          : 'scheduled'
      return {
        _id: mailingId(post._id),
        _type: 'newsletterIssue',
        postId: post._id,
        title: post.title ?? post.slug ?? post._id,
        status,
        publishedAt: now.toISOString(),
        dueAt: new Date(now.getTime() + graceMs).toISOString(),
      }
    })
  const published = new Map(posts.map((post) => [post._id, post]))
  const stops = mailings
    .filter((m) => m.status === 'scheduled')
    .flatMap((m) => {
      const post = published.get(m.postId)
      if (!post) return [{patch: {id: m._id, set: {status: 'cancelled'}}}]
      if (post.newsletter === false) return [{patch: {id: m._id, set: {status: 'off'}}}]
      return []
    })
  const mutations = [
    ...(first
      ? [{createIfNotExists: {_id: stateId, _type: 'newsletterState', since: now.toISOString()}}]
      : []),
    ...creates.map((doc) => ({createIfNotExists: doc})),
    ...stops,
  ]
  if (mutations.length > 0) await lake.mutate(mutations, {author})
  for (const doc of creates)
    if (doc.status === 'scheduled')
      console.info(`[newsletter] ${doc.postId} published: mailing at ${doc.dueAt}`)
  for (const stop of stops) console.info(`[newsletter] ${stop.patch.id} ${stop.patch.set.status}`)
}
