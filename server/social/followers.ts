import {createHash} from 'node:crypto'
import type {SocialContent} from './socialContent.ts'

/**
 * The site's followers, as private documents in the lake (`follower.<hash>`, ids with a dot, so
 * never on the public read path), like the newsletter's subscribers: the Studio lists them, a
 * backup keeps them, and a `Follow` is durable once its commit is.
 */
export interface Follower {
  _id: string
  _type: 'socialFollower'
  /** The remote actor's id (URL). */
  actor: string
  inbox: string
  sharedInbox?: string
  /** `@name@host`, for the Studio's list. */
  handle?: string
  name?: string
  /** The `Follow` this follower sent: an `Undo` must name it (or its actor). */
  followId?: string
  followedAt: string
  /** A delivery to this inbox that was given up on (dead inbox), shown in the Studio. */
  lastError?: string
}

const author = 'social'

export const followerId = (actor: string) =>
  `follower.${createHash('sha256').update(actor).digest('hex').slice(0, 32)}`

export class Followers {
  private readonly content: SocialContent

  constructor(content: SocialContent) {
    this.content = content
  }

  /** Stores (or refreshes) a follower; resolves once the commit is durable. */
  async add(follower: Omit<Follower, '_id' | '_type'>): Promise<void> {
    const _id = followerId(follower.actor)
    await this.content.mutate([{createOrReplace: {_id, _type: 'socialFollower', ...follower}}], {
      author,
    })
  }

  /** Removes the follower `actor`, if the `Follow` named is theirs (or none is named). */
  async remove(actor: string): Promise<boolean> {
    const _id = followerId(actor)
    if (!(await this.content.getDocument(_id))) return false
    await this.content.mutate([{delete: {id: _id}}], {author})
    return true
  }

  count(): Promise<number> {
    return this.content.query('count(*[_type == "socialFollower"])')
  }

  /** A page of followers in a stable order (the collection's cursor is the offset). */
  page(offset: number, limit: number): Promise<Follower[]> {
    return this.content.query('*[_type == "socialFollower"] | order(_id asc)[$offset...$end]', {
      offset,
      end: offset + limit,
    })
  }

  /** Every follower, for a delivery: read in pages so 10,000 followers are not one big query. */
  async all(): Promise<Follower[]> {
    const out: Follower[] = []
    for (let offset = 0; ; offset += 1000) {
      const page = await this.page(offset, 1000)
      out.push(...page)
      if (page.length < 1000) return out
    }
  }

  async markFailed(inbox: string, reason: string): Promise<void> {
    const ids = await this.content.query<string[]>(
      '*[_type == "socialFollower" && (inbox == $inbox || sharedInbox == $inbox)]._id',
      {inbox},
    )
    if (ids.length === 0) return
    await this.content.mutate(
      ids.map((id) => ({patch: {id, set: {lastError: reason.slice(0, 500)}}})),
      {author},
    )
  }
}
