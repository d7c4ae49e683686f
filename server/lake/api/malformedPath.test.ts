import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

describe('malformed percent-escapes on the Studio endpoints', () => {
  let server: LakeUnderTest
  beforeAll(async () => {
    server = await startLakeUnderTest()
  })
  afterAll(() => server.stop())

  it('answers 400 in Sanity shape, with or without a token, and keeps serving', async () => {
    for (const path of [
      '/v2021-06-07/users/%',
      '/v2021-06-07/users/%E0%A4%A',
      '/v2021-06-07/projects/%/datasets',
      '/v2021-06-07/projects/scriptorium/datasets/%25%/acl',
      '/v2021-06-07/datasets/%E0/acl',
      '/v2021-06-07/auth/id/%',
    ]) {
      for (const token of [undefined, server.token]) {
        const res = await fetch(`${server.url}${path}`, {
          headers: token ? {authorization: `Bearer ${token}`} : {},
        })
        expect([path, res.status]).toEqual([path, 400])
        expect(await res.json()).toMatchObject({error: {type: 'httpBadRequest'}})
      }
    }
    // A well-formed escape is a name like any other: here a project that does not exist.
    const escaped = await fetch(`${server.url}/v2021-06-07/projects/%25/datasets`)
    expect(escaped.status).toBe(404)
    await escaped.body?.cancel()
    const me = await fetch(`${server.url}/v2021-06-07/users/me`)
    expect(await me.json()).toEqual({})
  })

  it('never answers 500 to malformed query strings or login forms', async () => {
    const statuses = await Promise.all(
      [
        fetch(`${server.url}/v2021-06-07/auth/fetch?sid=%`),
        fetch(`${server.url}/v2021-06-07/auth/fetch?sid=%E0%A4%A`),
        fetch(`${server.url}/studio-login?origin=%25%`),
        fetch(`${server.url}/v2021-06-07/auth/providers?%=%`),
        fetch(`${server.url}/studio-login`, {
          method: 'POST',
          body: 'origin=%&password=%E0%A4%A',
          headers: {'content-type': 'application/x-www-form-urlencoded'},
        }),
      ].map(async (pending) => {
        const res = await pending
        await res.body?.cancel()
        return res.status
      }),
    )
    expect(statuses).toEqual([401, 401, 400, 200, 400])
  })
})
