import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {freePort} from '../../scripts/freePort.ts'
import {startTestServer, type TestServer} from '../../test/support/server.ts'
import {startRemoteActor} from '../social/testing/remoteActor.ts'
import {followerId} from '../social/followers.ts'

// Split deployment (docs/social-web.md): a site process (LAKE_URL) in front of the content
// process, both the real server on loopback, SITE_URL the site process's address. Everything a
// fediverse server asks of the site's host reaches the content process, which alone holds the
// keys and the queue; a Follow signed by another Fedify server is verified through the hop.
type Remote = Awaited<ReturnType<typeof startRemoteActor>>
let content: TestServer
let site: TestServer
let remote: Remote
let siteUrl: string
const activityJson = {accept: 'application/activity+json'}

beforeAll(async () => {
  vi.stubEnv('FEDERATION_ALLOW_PRIVATE', '1')
  const port = await freePort()
  siteUrl = `http://localhost:${port}`
  remote = await startRemoteActor()
  content = await startTestServer({SERVE_SITE: '0', TRUST_PROXY: 'loopback', SITE_URL: siteUrl})
  site = await startTestServer({LAKE_URL: content.url, PORT: String(port), SITE_URL: siteUrl})
  await content.lake!.mutate([
    {
      createOrReplace: {
        _id: 'split-post',
        _type: 'post',
        title: 'Split',
        slug: {_type: 'slug', current: 'split'},
        date: '2026-11-28',
      },
    },
  ])
}, 60_000)
afterAll(async () => {
  await site?.stop()
  await content?.stop()
  await remote?.close()
  vi.unstubAllEnvs()
})

describe('the social web behind a site process', () => {
  it('answers WebFinger, NodeInfo, the actor and a post Article from the content process', async () => {
    const host = new URL(siteUrl).host
    const finger = await fetch(`${siteUrl}/.well-known/webfinger?resource=acct:writer@${host}`)
    expect(finger.status).toBe(200)
    expect(JSON.stringify(await finger.json())).toContain(`${siteUrl}/social/site`)
    const nodeinfo = await fetch(`${siteUrl}/.well-known/nodeinfo`)
    expect(nodeinfo.status).toBe(200)
    const actor = await fetch(`${siteUrl}/social/site`, {headers: activityJson})
    expect(actor.status).toBe(200)
    expect(await actor.json()).toMatchObject({id: `${siteUrl}/social/site`, type: 'Person'})
    const article = await fetch(`${siteUrl}/blog/split`, {headers: activityJson})
    expect(article.status).toBe(200)
    expect(await article.json()).toMatchObject({type: 'Article', url: `${siteUrl}/blog/split`})
    // A browser still gets the page, rendered by the site process.
    const page = await fetch(`${siteUrl}/blog/split`, {headers: {accept: 'text/html'}})
    expect(page.headers.get('content-type')).toContain('text/html')
    // Only the content process holds the keys and the queue.
    expect(existsSync(join(site.dataDir, 'social-keys.json'))).toBe(false)
    expect(existsSync(join(site.dataDir, 'social.sqlite'))).toBe(false)
    expect(existsSync(join(content.dataDir, 'social.sqlite'))).toBe(true)
  })

  it("takes a signed Follow at the site's inbox: verified and stored by the content process", async () => {
    const follow = await remote.follow(`${siteUrl}/social/site`)
    await remote.until((all) =>
      all.some((r) => r.type === 'Accept' && r.objectId === follow.id?.href),
    )
    expect(content.lake!.getDocument(followerId(remote.actorUrl()))).toMatchObject({
      actor: remote.actorUrl(),
    })
  })

  it('refuses an unsigned activity (401) and an oversized one (413) at the site', async () => {
    const unsigned = await fetch(`${siteUrl}/social/inbox`, {
      method: 'POST',
      headers: {'content-type': 'application/activity+json'},
      body: JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${remote.actorUrl()}#unsigned`,
        type: 'Follow',
        actor: remote.actorUrl(),
        object: `${siteUrl}/social/site`,
      }),
    })
    expect(unsigned.status).toBe(401)
    const big = await fetch(`${siteUrl}/social/inbox`, {
      method: 'POST',
      headers: {'content-type': 'application/activity+json'},
      body: 'x'.repeat(300 * 1024),
    })
    expect(big.status).toBe(413)
  })
})
