import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localClient} from '../../../test/support/localClient.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {maxFailedAttempts} from '../../util/failedAttempts.ts'
import {throttledGuessDelayMs} from '../../util/guessPace.ts'
import {studioLoginPath as loginPath} from '../../../shared/constants.ts'

type Server = LakeUnderTest

/** Wrong tokens on every surface count per client; other clients, and the owner, are unaffected. */
describe('failed token attempts', () => {
  let server: Server
  let plain: Server
  let studioUrl: string

  beforeAll(async () => {
    // Behind a proxy on loopback: X-Forwarded-For names the client, one /24 per attacker.
    server = await startLakeUnderTest({trustProxy: 'loopback'})
    plain = await startLakeUnderTest()
    studioUrl = `${server.url}/studio`
  })
  afterAll(async () => {
    await server.stop()
    await plain.stop()
  })

  const me = (base: Server, token: string, from?: string) =>
    fetch(`${base.url}/v2021-06-07/users/me`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(from ? {'x-forwarded-for': from} : {}),
      },
    })
  const login = (password: string, from: string) =>
    fetch(`${server.url}${loginPath}`, {
      method: 'POST',
      body: new URLSearchParams({origin: studioUrl, password}),
      headers: {'x-forwarded-for': from},
      redirect: 'manual',
    })

  it('answers wrong bearer tokens 401 and then 429 with Retry-After; another client still logs in', async () => {
    const statuses: number[] = []
    const sent = maxFailedAttempts + 3
    for (let i = 0; i < sent; i++) {
      const res = await me(server, `wrong-token-${i}`, '198.51.100.7')
      statuses.push(res.status)
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(await res.json()).toMatchObject({error: {type: 'tooManyRequests'}})
      } else await res.body?.cancel()
    }
    expect(statuses).toEqual([
      ...Array<number>(maxFailedAttempts).fill(401),
      ...Array<number>(sent - maxFailedAttempts).fill(429),
    ])
    // The owner behind the same /24 is not locked out (security review 2, finding 4): the right
    // token and the right password are accepted; only wrong ones are refused.
    expect((await me(server, server.token, '198.51.100.8')).status).toBe(200)
    expect((await login(server.token, '198.51.100.8')).status).toBe(303)
    // Another address: the owner token works, and the login page logs in.
    expect((await me(server, server.token, '203.0.113.9')).status).toBe(200)
    expect((await login(server.token, '203.0.113.9')).status).toBe(303)
    // The attacker's address is refused on the login page too: one budget for all surfaces.
    const refused = await login('still-a-guess', '198.51.100.7')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain('Too many wrong passwords')
  })

  it('answers a throttled client’s wrong tokens a second late, and its right token at once (review 3, L3)', async () => {
    const from = '100.64.1.7'
    for (let i = 0; i < maxFailedAttempts; i++)
      expect((await me(server, `guess-${i}`, from)).status).toBe(401)
    // Throttled: each further guess is compared, and refused, only after the pace's delay, so
    // guessing runs at a few a second rather than as fast as the client can send.
    for (let i = 0; i < 3; i++) {
      const started = performance.now()
      const res = await me(server, `guess-more-${i}`, from)
      expect(res.status).toBe(429)
      await res.body?.cancel()
      expect(performance.now() - started).toBeGreaterThanOrEqual(throttledGuessDelayMs - 50)
    }
    // The owner's token, and the login page's password, still work from that /24.
    expect((await me(server, server.token, '100.64.1.8')).status).toBe(200)
    expect((await login(server.token, '100.64.1.8')).status).toBe(303)
    const wrongLogin = performance.now()
    expect((await login('a-guess', from)).status).toBe(429)
    expect(performance.now() - wrongLogin).toBeGreaterThanOrEqual(throttledGuessDelayMs - 50)
  })

  it('throttles wrong passwords on the login page per client', async () => {
    const statuses: number[] = []
    for (let i = 0; i < maxFailedAttempts + 2; i++) {
      const res = await login(`wrong-password-${i}`, '192.0.2.55')
      statuses.push(res.status)
      await res.body?.cancel()
    }
    expect(statuses.slice(0, maxFailedAttempts)).toEqual(Array(maxFailedAttempts).fill(401))
    expect(statuses.slice(maxFailedAttempts)).toEqual([429, 429])
    // Another /24: a different client (addresses are keyed truncated, server/http/clientAddress.ts).
    expect((await login(server.token, '192.0.3.200')).status).toBe(303)
  })

  it('ignores X-Forwarded-For without TRUST_PROXY: a guesser cannot dodge the throttle', async () => {
    const statuses: number[] = []
    for (let i = 0; i < maxFailedAttempts + 1; i++) {
      const res = await me(plain, `wrong-${i}`, `10.${i}.0.1`)
      statuses.push(res.status)
      await res.body?.cancel()
    }
    expect(statuses.at(-1)).toBe(429)
  })

  it('gives @sanity/client a 429 (a status it knows to back off on), not a 401', async () => {
    const client = localClient(plain.url, {
      token: 'still-wrong',
      maxRetries: 0,
    })
    await expect(client.fetch('count(*)')).rejects.toMatchObject({statusCode: 429})
  })
})
