import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {studioLoginPath as loginPath} from '../../../shared/constants.ts'

type Server = LakeUnderTest

/** Logs in as the Studio does (login form → #sid → /auth/fetch) and returns the session token. */
async function logIn(server: Server, password: string): Promise<string> {
  const form = await fetch(`${server.url}${loginPath}`, {
    method: 'POST',
    body: new URLSearchParams({origin: `${server.url}/studio`, password}),
    redirect: 'manual',
  })
  const sid = new URL(form.headers.get('location') ?? '').hash.replace(/^#sid=/, '')
  const fetched = await fetch(`${server.url}/v2021-06-07/auth/fetch?sid=${sid}`)
  return ((await fetched.json()) as {token: string}).token
}

const me = (server: Server, token: string) =>
  fetch(`${server.url}/v2021-06-07/users/me`, {headers: {authorization: `Bearer ${token}`}})

const minute = 60_000

describe('Studio session lifetimes (SESSION_IDLE_HOURS=1, SESSION_MAX_DAYS=1)', () => {
  let server: Server
  let now = Date.now()

  beforeAll(async () => {
    server = await startLakeUnderTest({sessionIdleMs: 3_600_000, sessionMaxMs: 86_400_000})
    server.lake.configureSessions({now: () => now})
  })
  afterAll(() => server.stop())

  it('ends a session an hour after its last use, with the 401 a logged-out session gets', async () => {
    const loggedOut = await logIn(server, server.token)
    await fetch(`${server.url}/v2021-06-07/auth/logout`, {
      method: 'POST',
      headers: {authorization: `Bearer ${loggedOut}`},
    })
    const afterLogout = await me(server, loggedOut)

    const token = await logIn(server, server.token)
    now += 59 * minute
    expect(await (await me(server, token)).json()).toMatchObject({id: 'p-owner'})
    now += 59 * minute // 59 minutes since the last use: still live
    expect((await me(server, token)).status).toBe(200)
    now += 61 * minute
    const expired = await me(server, token)
    expect(expired.status).toBe(afterLogout.status)
    expect(expired.status).toBe(401)
    expect(await expired.json()).toEqual(await afterLogout.json())
    const id = await fetch(`${server.url}/v2021-06-07/auth/id`, {
      headers: {authorization: `Bearer ${token}`},
    })
    expect(id.status).toBe(401)
    await id.body?.cancel()
  })

  it('ends a session a day after login however often it is used', async () => {
    const token = await logIn(server, server.token)
    const loggedInAt = now
    for (now = loggedInAt; now < loggedInAt + 24 * 60 * minute; now += 50 * minute) {
      const res = await me(server, token)
      expect(res.status).toBe(200)
      await res.body?.cancel()
    }
    now = loggedInAt + 24 * 60 * minute
    expect((await me(server, token)).status).toBe(401)
  })

  it('does not count a stale Studio tab retrying its ended session as guessing', async () => {
    const token = await logIn(server, server.token)
    now += 2 * 24 * 60 * minute
    for (let i = 0; i < 30; i++) {
      const res = await me(server, token)
      expect(res.status).toBe(401)
      await res.body?.cancel()
    }
    // Same client: the owner can still log in again.
    expect(await logIn(server, server.token)).toMatch(/^sess/)
  })
})

describe('rotating LAKE_TOKEN', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })

  it('revokes every session issued under the previous owner token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-rotate-'))
    dirs.push(dir)
    const first = 'first-owner-token-of-forty-characters-x'
    const second = 'second-owner-token-of-forty-characters-y'
    let server = await startLakeUnderTest({dataDir: dir, token: first})
    const session = await logIn(server, first)
    expect((await me(server, session)).status).toBe(200)
    await server.stop()

    server = await startLakeUnderTest({dataDir: dir, token: first})
    expect((await me(server, session)).status).toBe(200) // a restart alone keeps it
    await server.stop()

    server = await startLakeUnderTest({dataDir: dir, token: second})
    try {
      expect((await me(server, session)).status).toBe(401)
      expect((await me(server, first)).status).toBe(401)
      expect((await me(server, second)).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
