import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {DatabaseSync} from 'node:sqlite'

/** The single owner of a local lake: every token we issue acts as this user. */
export const owner = {
  id: 'p-owner',
  name: 'Site owner',
  email: 'owner@localhost',
  role: 'administrator',
} as const

export interface Identity {
  userId: string
}

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
    chmodSync(file, 0o600)
    return {token: readFileSync(file, 'utf8').trim(), file}
  }
  const token = `sk${randomBytes(32).toString('base64url')}`
  writeFileSync(file, `${token}\n`, {mode: 0o600})
  return {token, file}
}

const digest = (token: string) => createHash('sha256').update(token).digest()
const hash = (token: string) => digest(token).toString('hex')

/** Checks bearer tokens: the owner token, or a session issued by the Studio login flow. */
export class Auth {
  readonly ownerToken: string
  private readonly db: DatabaseSync
  /** Compared in constant time with the presented token's hash (hashed once, not per request). */
  private readonly ownerDigest: Buffer

  constructor(ownerToken: string, db: DatabaseSync) {
    this.ownerToken = ownerToken
    this.db = db
    this.ownerDigest = digest(ownerToken)
  }

  verify(token: string | undefined): Identity | undefined {
    if (!token) return undefined
    const presented = digest(token)
    if (timingSafeEqual(presented, this.ownerDigest)) return {userId: owner.id}
    const row = this.db
      .prepare('SELECT user_id FROM sessions WHERE token_hash = ?')
      .get(presented.toString('hex'))
    return row ? {userId: String(row.user_id)} : undefined
  }

  /** Issues a new session token for the owner (stored hashed). */
  createSession(): string {
    const token = `sess${randomBytes(32).toString('base64url')}`
    this.db
      .prepare('INSERT INTO sessions (token_hash, user_id, created_at) VALUES (?, ?, ?)')
      .run(hash(token), owner.id, new Date().toISOString())
    return token
  }

  revokeSession(token: string): void {
    this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(hash(token))
  }
}

/** The bearer token of a request, from `Authorization: Bearer …`. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i)
  return match?.[1]?.trim() || undefined
}
