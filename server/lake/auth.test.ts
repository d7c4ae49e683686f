import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterEach, describe, expect, it} from 'vitest'
import {Auth, bearerToken, resolveOwnerToken} from './auth.ts'

// The owner token and Studio sessions.
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-auth-'))
  dirs.push(dir)
  return dir
}

describe('owner token', () => {
  it('is generated once into the data dir with mode 0600 and reused', () => {
    const dir = freshDir()
    const first = resolveOwnerToken(dir)
    expect(first.token).toMatch(/^sk[\w-]{40,}$/)
    expect(first.file).toBe(join(dir, 'owner-token'))
    expect(statSync(join(dir, 'owner-token')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'owner-token'), 'utf8').trim()).toBe(first.token)
    expect(resolveOwnerToken(dir).token).toBe(first.token)
  })

  it('comes from LAKE_TOKEN when given, and then no file is written', () => {
    const dir = freshDir()
    expect(resolveOwnerToken(dir, 'from-env')).toEqual({token: 'from-env'})
    expect(() => statSync(join(dir, 'owner-token'))).toThrow()
  })
})

describe('Auth', () => {
  it('accepts the owner token and live sessions, nothing else', () => {
    const db = new DatabaseSync(':memory:')
    db.exec(
      'CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at TEXT NOT NULL)',
    )
    const auth = new Auth('owner-secret', db)
    expect(auth.verify('owner-secret')).toEqual({userId: 'p-owner'})
    expect(auth.verify('owner-secret ')).toBeUndefined()
    expect(auth.verify('')).toBeUndefined()
    const session = auth.createSession()
    expect(auth.verify(session)).toEqual({userId: 'p-owner'})
    // Only a hash is stored, never the token itself.
    expect(JSON.stringify(db.prepare('SELECT * FROM sessions').all())).not.toContain(session)
    auth.revokeSession(session)
    expect(auth.verify(session)).toBeUndefined()
    db.close()
  })

  it('reads bearer tokens case-insensitively and ignores other schemes', () => {
    expect(bearerToken('Bearer abc')).toBe('abc')
    expect(bearerToken('bearer  abc ')).toBe('abc')
    expect(bearerToken('Basic abc')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
})
