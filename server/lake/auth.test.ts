import {createHash} from 'node:crypto'
import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterEach, describe, expect, it} from 'vitest'
import {Auth, bearerToken, defaultSessionLifetimes, resolveOwnerToken} from './auth.ts'
import {failedAttemptWindowMs} from '../util/failedAttempts.ts'
import {Store} from './store/store.ts'
import {tempDirs} from '../../test/support/tempDirs.ts'

// The owner token and Studio sessions.
const freshDir = tempDirs('scriptorium-auth-')

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
  const open = (token = 'owner-secret', now: () => number = Date.now) => {
    const store = new Store(freshDir())
    stores.push(store)
    return {store, auth: new Auth(token, store.db, {now})}
  }
  const stores: Store[] = []
  afterEach(() => {
    for (const store of stores.splice(0)) store.close()
  })

  it('accepts the owner token and live sessions, nothing else', () => {
    const {store, auth} = open()
    expect(auth.verify('owner-secret')).toMatchObject({userId: 'p-owner'})
    expect(auth.verify('owner-secret ')).toBeUndefined()
    expect(auth.verify('')).toBeUndefined()
    const session = auth.createSession()
    expect(auth.verify(session)).toMatchObject({userId: 'p-owner'})
    // Only a hash is stored, never the token itself.
    expect(JSON.stringify(store.db.prepare('SELECT * FROM sessions').all())).not.toContain(session)
    let ended = 0
    auth.onSessionEnd(() => ended++)
    auth.revokeSession(session)
    expect(auth.verify(session)).toBeUndefined()
    expect(ended).toBe(1)
  })

  it('ends a session after the idle lifetime without use, and after the maximum age regardless', () => {
    let now = 1_000_000
    const {store, auth} = open('owner-secret', () => now)
    auth.configure({lifetimes: {idleMs: 10 * 60_000, maxMs: 60 * 60_000}})
    const idle = auth.createSession()
    const busy = auth.createSession()
    const usedAt = () =>
      store.db
        .prepare('SELECT used_ms FROM sessions ORDER BY used_ms')
        .all()
        .map((row) => Number(row.used_ms))
    // Used every 5 minutes: the busy one lives on; last use is written once a minute at most.
    for (let minute = 5; minute <= 55; minute += 5) {
      now = 1_000_000 + minute * 60_000
      expect(auth.verify(busy)).toMatchObject({userId: 'p-owner'})
      now += 20_000
      expect(auth.verify(busy)).toMatchObject({userId: 'p-owner'})
      expect(Math.max(...usedAt())).toBe(now - 20_000)
    }
    expect(auth.verify(idle)).toBeUndefined()
    // An hour after login even the busy one ends.
    now = 1_000_000 + 60 * 60_000
    expect(auth.verify(busy)).toBeUndefined()
    // Re-checks of open streams (touch: false) do not count as use.
    const quiet = auth.createSession()
    now += 9 * 60_000
    expect(auth.verify(quiet, {touch: false})).toMatchObject({userId: 'p-owner'})
    now += 2 * 60_000
    expect(auth.verify(quiet, {touch: false})).toBeUndefined()
  })

  it('revokes every session issued under another owner token (LAKE_TOKEN rotated)', () => {
    const {store, auth} = open('owner-secret-one')
    const session = auth.createSession()
    const rotated = new Auth('owner-secret-two', store.db)
    expect(rotated.verify(session)).toBeUndefined()
    expect(rotated.verify('owner-secret-one')).toBeUndefined()
    expect(new Auth('owner-secret-one', store.db).verify(session)).toMatchObject({
      userId: 'p-owner',
    })
  })

  it('throttles a client after ten wrong tokens, yet still accepts its right one', () => {
    let now = 0
    const {auth} = open('owner-secret', () => now)
    for (let i = 0; i < 10; i++)
      expect(auth.authenticate(`guess-${i}`, 'a')).toEqual({ok: false, throttled: false})
    expect(auth.authenticate('guess-10', 'a')).toMatchObject({ok: false, throttled: true})
    expect(auth.authenticateOwner('guess-11', 'a')).toMatchObject({ok: false, throttled: true})
    // Security review 2, finding 4: the owner behind the same /24 is not locked out.
    expect(auth.authenticate('owner-secret', 'a')).toMatchObject({ok: true})
    expect(auth.authenticateOwner('owner-secret', 'a')).toMatchObject({ok: true})
    expect(auth.authenticate(auth.createSession(), 'a')).toMatchObject({ok: true})
    expect(auth.authenticate('guess-12', 'b')).toEqual({ok: false, throttled: false})
    now = failedAttemptWindowMs + 1
    expect(auth.authenticate('guess-13', 'a')).toEqual({ok: false, throttled: false})
  })

  it('does not count tokens of sessions that ended as guesses', () => {
    const {auth} = open()
    const session = auth.createSession()
    auth.revokeSession(session)
    for (let i = 0; i < 30; i++)
      expect(auth.authenticate(session, 'tab')).toEqual({ok: false, throttled: false})
    expect(auth.authenticate('owner-secret', 'tab')).toMatchObject({ok: true})
  })

  it('refuses sessions from before sessions could end, without counting them as guesses', () => {
    const dir = freshDir()
    new Store(dir).close()
    // Back to schema step 3, with a session as that version stored it.
    const old = new DatabaseSync(join(dir, 'lake.sqlite'))
    old.exec(`ALTER TABLE sessions DROP COLUMN ended_ms; ALTER TABLE sessions DROP COLUMN owner;
              ALTER TABLE sessions DROP COLUMN used_ms; ALTER TABLE sessions DROP COLUMN created_ms;
              ALTER TABLE documents DROP COLUMN position; PRAGMA user_version = 3;`)
    const token = 'sess-from-an-older-version'
    old
      .prepare('INSERT INTO sessions (token_hash, user_id, created_at) VALUES (?, ?, ?)')
      .run(createHash('sha256').update(token).digest('hex'), 'p-owner', new Date().toISOString())
    old.close()
    const store = new Store(dir)
    stores.push(store)
    const auth = new Auth('owner-secret', store.db)
    auth.configure({lifetimes: defaultSessionLifetimes})
    for (let i = 0; i < 30; i++)
      expect(auth.authenticate(token, 'tab')).toEqual({ok: false, throttled: false})
    expect(auth.authenticate('owner-secret', 'tab')).toMatchObject({ok: true})
  })

  it('reads bearer tokens case-insensitively and ignores other schemes', () => {
    expect(bearerToken('Bearer abc')).toBe('abc')
    expect(bearerToken('bearer  abc ')).toBe('abc')
    expect(bearerToken('Basic abc')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
})
