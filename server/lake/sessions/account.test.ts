import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

type Server = LakeUnderTest

describe("the Studio's account, project, settings and harmless endpoints", () => {
  let server: Server
  let auth: Record<string, string>
  // Our own data dir, so that a restart finds the same files.
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-studio-'))
  const get = (path: string, headers: Record<string, string> = auth) =>
    fetch(`${server.url}${path}`, {headers})

  beforeAll(async () => {
    server = await startLakeUnderTest({dataDir})
    auth = {authorization: `Bearer ${server.token}`}
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dataDir, {recursive: true, force: true})
  })

  it('gives the owner every permission on every document (the ACL the Studio requires)', async () => {
    const res = await get('/v2021-06-07/projects/scriptorium/datasets/production/acl')
    expect(await res.json()).toEqual([
      {filter: '_id in path("**")', permissions: ['history', 'read', 'update', 'create', 'manage']},
    ])
    expect(
      (await get('/v2021-06-07/projects/scriptorium/datasets/production/acl', {})).status,
    ).toBe(401)
    expect((await get('/v2021-06-07/projects/other/datasets/production/acl')).status).toBe(404)
  })

  it('describes the project, its dataset, no comments add-on, and the owner as a user', async () => {
    expect(
      await (await get('/v2021-12-15/projects/scriptorium?includeMembers=false')).json(),
    ).toMatchObject({id: 'scriptorium', members: [{id: 'p-owner'}]})
    expect(
      await (
        await get(
          '/v2025-02-19/projects/scriptorium/datasets?datasetProfile=comments&addonFor=production',
        )
      ).json(),
    ).toEqual([])
    expect(await (await get('/v2025-02-19/projects/scriptorium/datasets')).json()).toMatchObject([
      {name: 'production'},
    ])
    expect(await (await get('/v2021-06-07/users/p-owner')).json()).toMatchObject({
      id: 'p-owner',
      displayName: 'Site owner',
    })
  })

  it('stores settings per key and keeps them across a restart', async () => {
    const post = await fetch(`${server.url}/v2025-02-19/users/me/keyvalue`, {
      method: 'POST',
      headers: {...auth, 'content-type': 'application/json'},
      body: JSON.stringify([{key: 'studio.structure-tool.layout.post', value: 'detail'}]),
    })
    expect(post.status).toBe(200)
    const read = await get(
      '/v2025-02-19/users/me/keyvalue/studio.structure-tool.layout.post,unknown.key',
    )
    expect(await read.json()).toEqual([
      {key: 'studio.structure-tool.layout.post', value: 'detail'},
      {key: 'unknown.key', value: null},
    ])
    await server.stop()
    server = await startLakeUnderTest({dataDir})
    auth = {authorization: `Bearer ${server.token}`}
    const again = await get('/v2025-02-19/users/me/keyvalue/studio.structure-tool.layout.post')
    expect(await again.json()).toEqual([
      {key: 'studio.structure-tool.layout.post', value: 'detail'},
    ])
  })

  it('stores a setting sent with PUT, as the Studio setKey does (its recent searches)', async () => {
    const put = await fetch(`${server.url}/v2025-02-19/users/me/keyvalue`, {
      method: 'PUT',
      headers: {...auth, 'content-type': 'application/json'},
      body: JSON.stringify([{key: 'studio.search.recent', value: ['before']}]),
    })
    expect(await put.json()).toEqual([{key: 'studio.search.recent', value: ['before']}])
    const read = await get('/v2025-02-19/users/me/keyvalue/studio.search.recent')
    expect(await read.json()).toEqual([{key: 'studio.search.recent', value: ['before']}])
  })

  it('refuses malformed settings with a 400 and stores nothing', async () => {
    const bad = await fetch(`${server.url}/v2025-02-19/users/me/keyvalue`, {
      method: 'POST',
      headers: {...auth, 'content-type': 'application/json'},
      body: JSON.stringify([{value: 1}]),
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.description).toMatch(/key/)
  })

  it('answers telemetry, journeys and checks harmlessly, and the features the lake has', async () => {
    expect(await (await get('/v2024-11-12/intake/telemetry-status')).json()).toEqual({
      status: 'denied',
    })
    expect(await (await get('/v2025-03-01/ping')).json()).toBe('PONG')
    expect(await (await get('/v2025-02-19/features')).json()).toEqual([
      'contentReleases',
      'singleDocRelease',
    ])
    expect(await (await get('/v2023-12-11/journey/trial?studioVersion=6.16.0')).json()).toEqual({})
    expect(
      (await fetch(`${server.url}/v2023-12-18/intake/batch`, {method: 'POST', body: '[]'})).status,
    ).toBe(200)
  })

  it('lists no cross-dataset references, and same-dataset referrers when asked', async () => {
    await server.lake.mutate([
      {create: {_id: 'target', _type: 'post', title: 'T'}},
      {
        create: {
          _id: 'source',
          _type: 'post',
          title: 'S',
          related: {_type: 'reference', _ref: 'target'},
        },
      },
    ])
    const external = await get(
      '/v2025-02-19/data/references/production/documents/target/to?excludeInternalReferences=true&excludePaths=true',
    )
    expect(await external.json()).toEqual({totalCount: 0, references: []})
    const internal = await get('/v2025-02-19/data/references/production/documents/target/to')
    expect(await internal.json()).toMatchObject({
      totalCount: 1,
      references: [{documentId: 'source'}],
    })
  })

  it('discards a draft with the version.discard action the Studio sends', async () => {
    await server.lake.mutate([{create: {_id: 'drafts.target', _type: 'post', title: 'T draft'}}])
    const res = await fetch(`${server.url}/v2025-02-19/data/actions/production`, {
      method: 'POST',
      headers: {...auth, 'content-type': 'application/json'},
      body: JSON.stringify({
        actions: [
          {actionType: 'sanity.action.document.version.discard', versionId: 'drafts.target'},
        ],
      }),
    })
    expect(res.status).toBe(200)
    expect(server.lake.getDocument('drafts.target')).toBeUndefined()
    expect(server.lake.getDocument('target')).toBeDefined()
  })
})
