import {createFederation, MemoryKvStore} from '@fedify/fedify'
import {Article} from '@fedify/vocab'
import {Hono} from 'hono'
import {describe, expect, it} from 'vitest'
import {articleMiddleware} from './honoBridge.ts'

/**
 * A post's address in front of a real Fedify federation: only a GET asking for ActivityPub
 * reaches Fedify; the site's page answers everything else, without Fedify ever being asked.
 */
function siteWithArticles() {
  const federation = createFederation<void>({kv: new MemoryKvStore()})
  federation.setObjectDispatcher(Article, '/blog/{slug}', (ctx, {slug}) =>
    slug === 'shared'
      ? new Article({id: ctx.getObjectUri(Article, {slug}), name: 'A shared post'})
      : null,
  )
  let asked = 0
  const app = new Hono()
  app.use(
    '/blog/:slug',
    articleMiddleware(
      () => {
        asked++
        return federation
      },
      () => 'https://site.example',
    ),
  )
  app.get('/blog/:slug', (c) => c.html(`<h1>${c.req.param('slug')}</h1>`))
  app.post('/blog/:slug', (c) => c.text('the site answers', 405))
  return {app, asked: () => asked}
}

const activityJson = {accept: 'application/activity+json'}

describe("Fedify's mount on a post's address", () => {
  it("answers the post's Article to ActivityPub, at the site's origin", async () => {
    const {app} = siteWithArticles()
    for (const accept of [
      'application/activity+json',
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    ]) {
      const res = await app.request('/blog/shared', {headers: {accept}})
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        type: 'Article',
        id: 'https://site.example/blog/shared',
        name: 'A shared post',
      })
    }
  })

  it('never asks Fedify for a browser, bare JSON-LD or a POST', async () => {
    const {app, asked} = siteWithArticles()
    const browser = await app.request('/blog/shared', {
      headers: {accept: 'text/html,application/xhtml+xml,*/*;q=0.8'},
    })
    expect(await browser.text()).toBe('<h1>shared</h1>')
    const bare = await app.request('/blog/shared', {headers: {accept: 'application/ld+json'}})
    expect(await bare.text()).toBe('<h1>shared</h1>')
    const post = await app.request('/blog/shared', {method: 'POST', headers: activityJson})
    expect(post.status).toBe(405)
    expect(asked()).toBe(0)
  })

  it("hands a slug Fedify does not know to the site's own answer", async () => {
    const {app} = siteWithArticles()
    const res = await app.request('/blog/unshared', {headers: activityJson})
    expect(await res.text()).toBe('<h1>unshared</h1>')
  })
})
