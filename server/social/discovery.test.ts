import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer, type TestServer} from '../../test/support/server.ts'

const activityJson = 'application/activity+json'

describe('the site as a fediverse account (WebFinger, actor, outbox, Article, NodeInfo)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    // Starting the whole server on a loaded machine (two cores, many tests) takes a while.
  }, 60_000)
  afterAll(() => server.stop())

  const get = (path: string, accept = activityJson) =>
    fetch(`${server.url}${path}`, {headers: {accept}})

  it('answers WebFinger for @writer@<host> with the actor', async () => {
    const host = new URL(server.config.siteUrl).host
    const res = await get(
      `/.well-known/webfinger?resource=acct:writer@${host}`,
      'application/jrd+json',
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as {subject: string; links: {rel: string; href?: string}[]}
    expect(body.subject).toBe(`acct:writer@${host}`)
    const self = body.links.find((l) => l.rel === 'self')
    expect(self?.href).toBe(`${server.config.siteUrl}/social/site`)
  })

  it('answers 404 for another handle', async () => {
    const host = new URL(server.config.siteUrl).host
    const res = await get(`/.well-known/webfinger?resource=acct:someone@${host}`)
    expect(res.status).toBe(404)
  })

  it('serves the actor: a Person with a name, the site URL and a public key', async () => {
    const res = await get('/social/site')
    expect(res.status).toBe(200)
    const actor = (await res.json()) as Record<string, unknown>
    expect(actor.type).toBe('Person')
    expect(actor.preferredUsername).toBe('writer')
    expect(actor.name).toBe('Zoya Mir')
    expect(actor.url).toBe(`${server.config.siteUrl}/`)
    expect(JSON.stringify(actor.publicKey)).toContain('BEGIN PUBLIC KEY')
  })

  it('lists every published post in the outbox, paged, newest first', async () => {
    const outbox = (await (await get('/social/site/outbox')).json()) as {
      totalItems: number
      first: string
    }
    const published = await server.lake!.query<number>(
      'count(*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))])',
    )
    expect(outbox.totalItems).toBe(published)
    const page = (await (
      await get(new URL(outbox.first).pathname + new URL(outbox.first).search)
    ).json()) as {
      orderedItems: {type: string; object: {type: string; name: string; url: string}}[]
    }
    expect(page.orderedItems.length).toBe(Math.min(20, published))
    expect(page.orderedItems[0].type).toBe('Create')
    expect(page.orderedItems[0].object.type).toBe('Article')
  })

  it("answers a post's URL with its Article for activity+json, and with the page for a browser", async () => {
    const post = await server.lake!.query<{
      slug: string
      title: string
      category: {title: string; slug: string}
    }>(
      '*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))] | order(date desc)[0]{"slug": slug.current, title, "category": category->{title, "slug": slug.current}}',
    )
    const res = await get(`/blog/${post.slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/activity+json')
    const article = (await res.json()) as Record<string, unknown>
    expect(article.type).toBe('Article')
    expect(article.name).toBe(post.title)
    expect(article.id).toBe(`${server.config.siteUrl}/blog/${post.slug}`)
    expect(String(article.content)).toContain('<p>')
    // The category (a reference to its document) as a hashtag linking to its tab.
    expect(article.tag).toEqual({
      type: 'Hashtag',
      name: `#${post.category.title.replace(/[^\p{L}\p{N}_]/gu, '')}`,
      href: `${server.config.siteUrl}/blog?category=${encodeURIComponent(post.category.slug)}`,
    })
    // The site's page answers a browser (503 here: the tests start without a client build).
    const page = await get(`/blog/${post.slug}`, 'text/html')
    expect(page.headers.get('content-type')).not.toContain('activity+json')
    // The blog list and its tabs are the site's pages too, answered as the home page is.
    const home = await get('/', 'text/html')
    for (const path of ['/blog', '/blog?category=Fiction']) {
      const list = await get(path, 'text/html')
      expect([path, list.status, list.headers.get('content-type')]).toEqual([
        path,
        home.status,
        home.headers.get('content-type'),
      ])
    }
  })

  it('describes the server with NodeInfo', async () => {
    const links = (await (await get('/.well-known/nodeinfo', 'application/json')).json()) as {
      links: {href: string}[]
    }
    const info = (await (await fetch(links.links[0].href)).json()) as {
      software: {name: string}
      protocols: string[]
    }
    expect(info.software.name).toBe('scriptorium')
    expect(info.protocols).toEqual(['activitypub'])
  })
})
