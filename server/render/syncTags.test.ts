import {createClient, type SanityClient} from '@sanity/client'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'

// Which cached pages a publish drops (issue 23): the lake tags each answer by the document types
// its query reads (server/lake/events/syncTags.ts), and a commit fires the types it changed. One process,
// the default: its render cache follows its own lake's live events like a site process does.

const post = {
  id: 'post-ghostwriting-without-losing-your-voice',
  path: '/blog/ghostwriting-without-losing-your-voice',
}
const pages = ['/blog', post.path, '/', '/services', '/contact']
let server: Awaited<ReturnType<typeof startTestServer>>
let owner: SanityClient

const cacheOf = async (path: string) => {
  const response = await fetch(`${server.url}${path}`)
  await response.arrayBuffer()
  expect(response.status, path).toBe(200)
  return response.headers.get('x-cache')
}
const cacheOfAll = async () => {
  const seen: Record<string, string | null> = {}
  for (const path of pages) seen[path] = await cacheOf(path)
  return seen
}

beforeAll(async () => {
  server = await startTestServer()
  owner = createClient({
    projectId: localProjectId,
    dataset: defaultDataset,
    apiVersion,
    apiHost: server.url,
    useProjectHostname: false,
    useCdn: false,
    token: server.lake!.token,
  })
  await vi.waitFor(() => expect(server.contentEvents.live).toBe(true), {timeout: 15_000})
  await cacheOfAll()
  expect(Object.values(await cacheOfAll())).toEqual(pages.map(() => 'HIT'))
})
afterAll(() => server.stop())

// The process answers only once its own commit has come through the stream (contentEvents
// `upToDate`), so each read below already reflects the publish before it.
describe('pages dropped by a publish', () => {
  it('publishing a document of a type no page reads drops nothing', async () => {
    await owner.create({_id: 'service-editing', _type: 'service', title: 'Line editing'})
    // An image nothing refers to yet reaches no page either.
    await owner.create({_id: 'image-unused', _type: 'sanity.imageAsset', url: 'unused'})
    expect(await cacheOfAll()).toEqual(Object.fromEntries(pages.map((path) => [path, 'HIT'])))
  })

  it('publishing a post drops the pages that read posts, and keeps the page without queries', async () => {
    await owner.patch(post.id).set({title: 'Ghostwriting, retitled'}).commit()
    expect(await cacheOfAll()).toEqual({
      '/blog': 'MISS',
      [post.path]: 'MISS',
      '/': 'MISS',
      '/services': 'HIT',
      '/contact': 'HIT',
    })
    expect(await (await fetch(`${server.url}${post.path}`)).text()).toContain(
      'Ghostwriting, retitled',
    )
  })

  it('changing an image a post shows drops the pages that show images', async () => {
    const image = await server.lake!.query<{_ref: string} | null>(
      '*[_id == $id][0].mainImage.asset',
      {id: post.id},
      {authenticated: true},
    )
    expect(image?._ref).toBeTruthy()
    await cacheOfAll()
    await owner.patch(image!._ref).set({altText: 'changed'}).commit()
    const seen = await cacheOfAll()
    expect(seen[post.path]).toBe('MISS')
    // A page that reads no image stays cached (Services joins more since its copy became content).
    expect(seen['/contact']).toBe('HIT')
  })
})
