import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {studioLoginPath as loginPath} from '../../../shared/constants.ts'
import {localAuth} from '../../../studio/env.ts'
import {SidStore, sidLifetimeMs} from './loginSids.ts'

type Server = LakeUnderTest

describe('the Studio login flow', () => {
  let server: Server
  let studioUrl: string
  const login = (form: Record<string, string>) =>
    fetch(`${server.url}${loginPath}`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
    })
  const me = (token?: string) =>
    fetch(`${server.url}/v2021-06-07/users/me`, {
      headers: token ? {authorization: `Bearer ${token}`} : {},
    })

  beforeAll(async () => {
    server = await startLakeUnderTest()
    studioUrl = `${server.url}/studio`
  })
  afterAll(() => server.stop())

  it('is the page the Studio config names as its provider', () => {
    expect(localAuth('https://example.test').providers).toEqual([
      expect.objectContaining({url: `https://example.test${loginPath}`}),
    ])
  })

  it('shows a form for a return address inside the Studio, and refuses foreign ones', async () => {
    const ok = await fetch(
      `${server.url}${loginPath}?origin=${encodeURIComponent(studioUrl)}&projectId=scriptorium&withSid=true`,
    )
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const html = await ok.text()
    expect(html).toContain('type="password"')
    expect(html).toContain(`value="${studioUrl}"`)
    const foreign = await fetch(
      `${server.url}${loginPath}?origin=${encodeURIComponent('https://evil.example/studio')}`,
    )
    expect(foreign.status).toBe(400)
    expect(await foreign.text()).not.toContain('evil.example')
  })

  it('redirects with a single-use #sid that /auth/fetch exchanges for a working session token', async () => {
    const res = await login({origin: studioUrl, password: server.token})
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(studioUrl)
    const sid = location.hash.match(/^#sid=([^&]{20,})$/)?.[1] ?? ''
    expect(sid).not.toBe('')
    const fetched = await fetch(`${server.url}/v2021-06-07/auth/fetch?sid=${sid}`)
    expect(fetched.status).toBe(200)
    const {token} = (await fetched.json()) as {token: string}
    expect(await (await me(token)).json()).toMatchObject({id: 'p-owner', role: 'administrator'})
    expect((await fetch(`${server.url}/v2021-06-07/auth/fetch?sid=${sid}`)).status).toBe(401)

    const logout = await fetch(`${server.url}/v2021-06-07/auth/logout`, {
      method: 'POST',
      headers: {authorization: `Bearer ${token}`},
    })
    expect(logout.status).toBe(200)
    expect((await me(token)).status).toBe(401)
  })

  it('answers a wrong password 401 with the form again, and a foreign return address 400', async () => {
    const wrong = await login({origin: studioUrl, password: 'nope'})
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('Wrong password.')
    const foreign = await login({
      origin: 'https://localhost:1/elsewhere',
      password: server.token,
    })
    expect(foreign.status).toBe(400)
    expect(foreign.headers.get('location')).toBeNull()
  })

  it('answers an anonymous /users/me with {} (the Studio then shows its login screen)', async () => {
    const res = await me()
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({})
  })

  it('lists our one provider at /auth/providers', async () => {
    const res = await fetch(`${server.url}/v2021-06-07/auth/providers`)
    expect(await res.json()).toMatchObject({
      providers: [{name: 'local', url: `${server.url}${loginPath}`}],
    })
  })
})

describe('SidStore', () => {
  it('expires sids after their lifetime', () => {
    let now = 0
    const sids = new SidStore(() => now)
    const sid = sids.issue()
    now = sidLifetimeMs + 1
    expect(sids.redeem(sid)).toBe(false)
  })
})
