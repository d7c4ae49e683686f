import type {SocialContent} from './socialContent.ts'
import type {Follower} from './followers.ts'

/** The private documents that hold blocks: `socialBlock.<hash>`, `target` a host or an actor URL. */
export const blockIdPrefix = 'socialBlock.'

/**
 * Who the owner blocked: whole instances (a host, `mastodon.example`) or single accounts (an
 * actor's URL). Held in memory, read again when a block changes, so the inbox can drop a blocked
 * host's activity before reading its body or fetching anything.
 */
export class Blocks {
  private readonly content: SocialContent
  private hosts = new Set<string>()
  private actors = new Set<string>()

  constructor(content: SocialContent) {
    this.content = content
  }

  async load(): Promise<void> {
    const targets = await this.content.query<unknown[]>('*[_type == "socialBlock"].target')
    const strings = targets.filter((t): t is string => typeof t === 'string')
    this.actors = new Set(strings.filter((t) => t.includes('/')))
    this.hosts = new Set(strings.filter((t) => !t.includes('/')).map((t) => t.toLowerCase()))
  }

  isBlockedHost(host: string): boolean {
    return this.hosts.has(host.toLowerCase())
  }

  isBlockedActor(actor: string): boolean {
    if (this.actors.has(actor)) return true
    try {
      return this.isBlockedHost(new URL(actor).host)
    } catch {
      return true
    }
  }

  isBlocked(follower: Follower): boolean {
    return this.isBlockedActor(follower.actor)
  }
}
