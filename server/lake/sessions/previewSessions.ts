import {createHash, randomBytes} from 'node:crypto'
import type {Identity} from '../identity.ts'
import {setNewest} from '../../util/boundedMap.ts'

/** The document type the Studio's Presentation tool writes its preview secrets as. */
export const previewSecretType = 'sanity.previewUrlSecret'

/** A preview session unused this long ends (the Presentation tool uses it on every refresh). */
export const previewIdleMs = 60 * 60_000
/** ... and this long after it was opened, used or not. */
export const previewMaxMs = 12 * 60 * 60_000
/** Preview sessions held at once; the oldest ends first. Only the owner opens them. */
const maxSessions = 64
/** Secrets whose author is remembered; older ones can no longer open a preview. */
const maxSecretAuthors = 256

/** Who opened something: a Studio session's token hash, or undefined for the owner token itself. */
type Parent = string | undefined

interface PreviewSession {
  parent: Parent
  openedMs: number
  usedMs: number
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Read-only preview sessions (docs/preview.md): what the site's preview cookie stands for. A
 * preview session reads drafts and opens live events, and may write nothing. It never outlives
 * the Studio session that opened it: `isLive(parent)` is asked on every use, so logout, expiry
 * and token rotation end both. Held in memory: a restart ends every preview, and the Studio's
 * Presentation tool opens a new one.
 */
export class PreviewSessions {
  private readonly sessions = new Map<string, PreviewSession>()
  private readonly secretAuthors = new Map<string, Parent>()
  private readonly isLive: (parent: Parent) => boolean
  private readonly now: () => number

  constructor(isLive: (parent: Parent) => boolean, now: () => number = Date.now) {
    this.isLive = isLive
    this.now = now
  }

  /** Remembers which Studio session wrote a preview secret document (server/lake/api/mutate.ts). */
  noteSecretAuthor(documentId: string, author: Identity): void {
    setNewest(this.secretAuthors, documentId, author.session, maxSecretAuthors)
  }

  /**
   * The Studio session behind a secret document, while that session is live: `{parent}`, or
   * undefined when the author is unknown (written before a restart) or has ended.
   */
  authorOfSecret(documentId: string): {parent: Parent} | undefined {
    if (!this.secretAuthors.has(documentId)) return undefined
    const parent = this.secretAuthors.get(documentId)
    return this.isLive(parent) ? {parent} : undefined
  }

  /** Opens a preview session on behalf of `parent`; returns its token (kept only as a hash). */
  open(parent: Parent): string {
    const token = `prv${randomBytes(32).toString('base64url')}`
    const now = this.now()
    setNewest(this.sessions, hash(token), {parent, openedMs: now, usedMs: now}, maxSessions)
    return token
  }

  /**
   * What a presented token comes to: a live preview session's identity, 'ended' for one that
   * was ours and has ended (not a guess), or undefined when it was never a preview token.
   */
  check(token: string, touch = true): Identity | 'ended' | undefined {
    if (!token.startsWith('prv')) return undefined
    const key = hash(token)
    const session = this.sessions.get(key)
    if (!session) return undefined
    const now = this.now()
    const live =
      session.openedMs + previewMaxMs > now &&
      session.usedMs + previewIdleMs > now &&
      this.isLive(session.parent)
    if (!live) {
      this.sessions.delete(key)
      return 'ended'
    }
    if (touch) session.usedMs = now
    return {userId: 'preview', preview: true, ...(session.parent ? {session: session.parent} : {})}
  }

  /** The parent of a live preview session (to let its own Studio session replay a secret). */
  parentOf(token: string): {parent: Parent} | undefined {
    const identity = this.check(token, false)
    if (identity === undefined || identity === 'ended') return undefined
    return {parent: identity.session}
  }

  /** Ends a preview session (the site's disable route). */
  end(token: string): void {
    this.sessions.delete(hash(token))
  }
}
