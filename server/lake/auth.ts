import {createHash, hash as oneShotHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {DatabaseSync, StatementSync} from 'node:sqlite'
import {moveAside, privateFileMode, tightenMode, writeFileDurablySync} from '../util/durableFile.ts'
import {FailedAttempts} from '../util/failedAttempts.ts'
import {GuessPace} from '../util/guessPace.ts'
import {PreviewSessions} from './sessions/previewSessions.ts'
import type {Identity} from './identity.ts'
import {
  defaultSessionIdleHours,
  defaultSessionMaxDays,
  minLakeTokenLength,
} from '../../shared/ownerAccess.ts'

/** The single owner of a local lake: every token we issue acts as this user. */
export const owner = {
  id: 'p-owner',
  name: 'Site owner',
  email: 'owner@localhost',
  role: 'administrator',
} as const

const tokenFileName = 'owner-token'

/**
 * The owner token: `LAKE_TOKEN` when set, otherwise generated once into the data dir with
 * mode 0600 so that it never needs to live in git or in a shell history.
 */
export function resolveOwnerToken(
  dataDir: string,
  fromEnv?: string,
): {token: string; file?: string} {
  if (fromEnv) return {token: fromEnv}
  const file = join(dataDir, tokenFileName)
  if (existsSync(file)) {
    tightenMode(file, privateFileMode)
    const stored = readFileSync(file, 'utf8').trim()
    // A token this short was not written by us (we write 45 characters): start with a new one.
    if (stored.length >= minLakeTokenLength) return {token: stored, file}
    moveAside(file, 'too short to be an owner token')
  }
  const token = `sk${randomBytes(32).toString('base64url')}`
  writeFileDurablySync(file, `${token}\n`, privateFileMode)
  return {token, file}
}

// One-shot: every request with a token hashes it, and a Hash object per call cost twice as much.
const digest = (token: string) => oneShotHash('sha256', token, 'buffer')
const hash = (token: string) => digest(token).toString('hex')

/** How long Studio sessions live; ServerConfig's SESSION_IDLE_HOURS / SESSION_MAX_DAYS. */
export interface SessionLifetimes {
  /** A session ends this long after its last use. */
  idleMs: number
  /** ... and this long after login, used or not. */
  maxMs: number
}

export const defaultSessionLifetimes: SessionLifetimes = {
  idleMs: defaultSessionIdleHours * 3_600_000,
  maxMs: defaultSessionMaxDays * 86_400_000,
}

/**
 * Last use is written at most this often per session (or a tenth of the idle lifetime, if
 * shorter): a write per request would be an fsync per request (synchronous=FULL), and idle
 * lifetimes are hours, so a minute of slack is nothing.
 */
export const sessionTouchIntervalMs = 60_000

/**
 * Ended sessions stay as hash-only rows this long past their maximum lifetime, so a Studio tab
 * still holding one gets a plain 401 that does not count as a failed guess (server/lake/
 * failedAttempts.ts): otherwise a few stale tabs would lock the owner out of the login page.
 */
export const endedSessionKeepMs = 7 * 86_400_000

/** What a token presented on some surface comes to. */
export type TokenVerdict =
  | {ok: true; identity: Identity}
  /** Wrong, expired or revoked: answer 401. */
  | {ok: false; throttled: false}
  /** Too many wrong tokens from this client lately: answer 429. */
  | Throttled

/** A client over its failed-token limit: answer 429 with Retry-After. */
interface Throttled {
  ok: false
  throttled: true
  retryAfterSeconds: number
}

export interface AuthOptions {
  lifetimes?: SessionLifetimes
  now?: () => number
  attempts?: FailedAttempts
  pace?: GuessPace
}

type SessionEndListener = () => void

/** Checks bearer tokens: the owner token, or a session issued by the Studio login flow. */
export class Auth {
  readonly ownerToken: string
  private readonly db: DatabaseSync
  /** Compared in constant time with the presented token's hash (hashed once, not per request). */
  private readonly ownerDigest: Buffer
  /** Stored with each session: a session issued under another owner token is revoked. */
  private readonly ownerFingerprint: string
  private lifetimes: SessionLifetimes
  private now: () => number
  /** Failed token attempts per client, shared by every surface that takes a token. */
  readonly attempts: FailedAttempts
  /** How fast a throttled client's tokens are checked (server/util/guessPace.ts). */
  private pace: GuessPace
  private readonly endListeners = new Set<SessionEndListener>()
  private readonly statements: {select: StatementSync; touch: StatementSync}
  /** Read-only preview sessions, each ending with the Studio session that opened it. */
  readonly previews: PreviewSessions

  constructor(ownerToken: string, db: DatabaseSync, options: AuthOptions = {}) {
    this.ownerToken = ownerToken
    this.db = db
    this.ownerDigest = digest(ownerToken)
    this.ownerFingerprint = createHash('sha256')
      .update('scriptorium session owner\0')
      .update(ownerToken)
      .digest('hex')
    this.lifetimes = options.lifetimes ?? defaultSessionLifetimes
    this.now = options.now ?? Date.now
    this.attempts = options.attempts ?? new FailedAttempts({now: () => this.now()})
    this.pace = options.pace ?? new GuessPace()
    this.statements = {
      select: db.prepare(
        'SELECT user_id, created_ms, used_ms, owner, ended_ms FROM sessions WHERE token_hash = ?',
      ),
      touch: db.prepare('UPDATE sessions SET used_ms = ? WHERE token_hash = ?'),
    }
    this.previews = new PreviewSessions(
      (parent) => parent === undefined || this.liveSession(parent, false)?.identity !== undefined,
      () => this.now(),
    )
  }

  /**
   * Sets the session lifetimes from the server's config (server/lake/api/routes.ts), and a
   * clock and a guess pace for tests.
   */
  configure(options: {lifetimes?: SessionLifetimes; now?: () => number; pace?: GuessPace}): void {
    if (options.lifetimes) this.lifetimes = options.lifetimes
    if (options.now) this.now = options.now
    if (options.pace) this.pace = options.pace
    this.purge()
  }

  /**
   * The identity of a valid token, or undefined for a wrong, expired or revoked one. A check
   * on the caller's behalf notes the session's use; `touch: false` is for re-checks of an
   * open stream or socket, which are not the owner using it.
   */
  verify(token: string | undefined, options: {touch?: boolean} = {}): Identity | undefined {
    if (!token) return undefined
    const presented = digest(token)
    if (timingSafeEqual(presented, this.ownerDigest)) return {userId: owner.id}
    const preview = this.previews.check(token, options.touch ?? true)
    if (preview !== undefined) return preview === 'ended' ? undefined : preview
    return this.liveSession(presented.toString('hex'), options.touch ?? true)?.identity
  }

  /**
   * What every surface awaits before it checks a token from `client` with `authenticate` or
   * `authenticateOwner`: at once for a client within its failed-attempt limit; for a throttled
   * one, its pace (server/util/guessPace.ts): a right token (`isRight`, which counts nothing)
   * passes at once, a wrong one after a second, and none is compared while the client already
   * has its few guesses waiting. False means: refuse it uncompared (`throttledVerdict`).
   */
  async paced(client: string, isRight: () => boolean): Promise<boolean> {
    if (this.attempts.retryAfterMs(client) === 0) return true
    return this.pace.check(client, isRight)
  }

  /** The 429 for a throttled client, with how long until it may try again. */
  throttledVerdict(client: string): Throttled {
    const wait = Math.max(this.attempts.retryAfterMs(client), 1_000)
    return {ok: false, throttled: true, retryAfterSeconds: Math.ceil(wait / 1000)}
  }

  /**
   * `verify` for a token from `client` (`clientOf(c).key`), counting wrong tokens: a client over
   * the limit gets `throttled` for a wrong token. A right one (the owner token, a live session)
   * is accepted even then, so that wrong guesses from a neighbour in the same /24 cannot lock
   * the owner out (security review 2, finding 4). Guessing stays slow because every surface
   * awaits `paced` first: a throttled client's wrong tokens are answered a second late, a few at
   * a time (security review 3, L3). Tokens of sessions that ended are not guesses and do not
   * count.
   */
  authenticate(token: string, client: string): TokenVerdict {
    const presented = digest(token)
    if (timingSafeEqual(presented, this.ownerDigest))
      return {ok: true, identity: {userId: owner.id}}
    // A preview session that ended is not a guess either.
    const preview = this.previews.check(token)
    if (preview === 'ended') return {ok: false, throttled: false}
    if (preview !== undefined) return {ok: true, identity: preview}
    const session = this.liveSession(presented.toString('hex'), true)
    if (session?.identity) return {ok: true, identity: session.identity}
    if (session) return {ok: false, throttled: false}
    return this.wrong(client)
  }

  /** The login page's password check: only the owner token itself, throttled like `authenticate`. */
  authenticateOwner(password: string, client: string): TokenVerdict {
    if (password && this.isOwnerToken(password)) return {ok: true, identity: {userId: owner.id}}
    return this.wrong(client)
  }

  /** A wrong token: counted, or, from a client already over the limit, refused with its wait. */
  private wrong(client: string): TokenVerdict {
    const wait = this.attempts.retryAfterMs(client)
    if (wait > 0) return {ok: false, throttled: true, retryAfterSeconds: Math.ceil(wait / 1000)}
    this.attempts.fail(client)
    return {ok: false, throttled: false}
  }

  /** Constant-time comparison with the owner token. */
  isOwnerToken(token: string): boolean {
    return timingSafeEqual(digest(token), this.ownerDigest)
  }

  /** Issues a new session token for the owner (stored hashed). */
  createSession(): string {
    this.purge()
    const token = `sess${randomBytes(32).toString('base64url')}`
    const now = this.now()
    this.db
      .prepare(
        `INSERT INTO sessions (token_hash, user_id, created_at, created_ms, used_ms, owner)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(hash(token), owner.id, new Date(now).toISOString(), now, now, this.ownerFingerprint)
    return token
  }

  /** Ends a session (logout): it verifies no more, and its open streams and sockets close. */
  revokeSession(token: string): void {
    const ended = this.db
      .prepare('UPDATE sessions SET ended_ms = ? WHERE token_hash = ? AND ended_ms IS NULL')
      .run(this.now(), hash(token))
    if (ended.changes > 0) for (const listener of this.endListeners) listener()
  }

  /**
   * Called when a session is revoked, so holders of open streams and sockets re-verify at once
   * rather than at their next event. Returns the unsubscribe function.
   */
  onSessionEnd(listener: SessionEndListener): () => void {
    this.endListeners.add(listener)
    return () => this.endListeners.delete(listener)
  }

  /**
   * The stored session for a token hash: `identity` set when it is live, unset when it ended
   * (logout, idle, age, another owner token); undefined when no such session was ever issued.
   */
  private liveSession(tokenHash: string, touch: boolean): {identity?: Identity} | undefined {
    const row = this.statements.select.get(tokenHash)
    if (!row) return undefined
    const now = this.now()
    const {idleMs, maxMs} = this.lifetimes
    const live =
      row.ended_ms === null &&
      row.owner === this.ownerFingerprint &&
      Number(row.created_ms) + maxMs > now &&
      Number(row.used_ms) + idleMs > now
    if (!live) return {}
    if (touch && now - Number(row.used_ms) >= Math.min(sessionTouchIntervalMs, idleMs / 10)) {
      this.statements.touch.run(now, tokenHash)
    }
    return {identity: {userId: String(row.user_id), session: tokenHash}}
  }

  /** Forgets sessions long ended: the table holds at most the logins of the last max + keep. */
  private purge(): void {
    this.db
      .prepare('DELETE FROM sessions WHERE created_ms < ?')
      .run(this.now() - this.lifetimes.maxMs - endedSessionKeepMs)
  }
}

/** The bearer token of a request, from `Authorization: Bearer …`. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i)
  return match?.[1]?.trim() || undefined
}
