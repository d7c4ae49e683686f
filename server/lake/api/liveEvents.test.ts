import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {LiveEvent, SanityClient} from '@sanity/client'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {localClient} from '../../../test/support/localClient.ts'
import {Lake, authOf} from '../lake.ts'
import {apiVersion, defaultDataset} from '../../../shared/constants.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {maxAnonymousStreams} from './openStreams.ts'
import {maxResumeGap, registerLiveEvents} from './liveEvents.ts'
import {reconnectDelayMs} from './sse.ts'
import {anyTag, draftsTag, refTag, typeTag} from '../events/syncTags.ts'

/** What a commit of a post that nothing refers to fires. */
const postTags = [anyTag, typeTag('post')]

// The live-content stream as client.live.events() and the Presentation tool see it.

/** Subscribes to `client.live.events()`; `next()` is the next event, `error()` the failure. */
function subscribe(client: SanityClient, options: {includeDrafts?: boolean} = {}) {
  const queue: LiveEvent[] = []
  const waiting: Array<(event: LiveEvent) => void> = []
  let failed: (reason: unknown) => void = () => undefined
  const failure = new Promise<unknown>((resolve) => (failed = resolve))
  const subscription = client.live.events({...options, tag: 'test'}).subscribe({
    next(event) {
      const waiter = waiting.shift()
      if (waiter) waiter(event)
      else queue.push(event)
    },
    error: (error: unknown) => failed(error),
  })
  return {
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift()!)
        : new Promise<LiveEvent>((resolve) => waiting.push(resolve)),
    error: () => failure,
    close: () => subscription.unsubscribe(),
  }
}

/** Reads raw SSE blocks from a response, for what the client library hides (ids, restart). */
function blocks(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const next = async (): Promise<string> => {
    while (!buffer.includes('\n\n')) {
      const {done, value} = await reader.read()
      if (done) throw new Error('stream ended')
      buffer += value
    }
    const end = buffer.indexOf('\n\n')
    const block = buffer.slice(0, end)
    buffer = buffer.slice(end + 2)
    return block
  }
  // Cancelling the body is the client going away: its stream slot is released.
  return Object.assign(next, {cancel: () => reader.cancel()})
}

describe('GET /v{version}/data/live/events/{dataset}', () => {
  let t: LakeUnderTest
  const path = `/v${apiVersion}/data/live/events/${defaultDataset}`
  beforeAll(async () => {
    t = await startLakeUnderTest()
  })
  afterAll(() => t.stop())

  it('sends welcome, then a message per public commit, and nothing for a draft or inbox commit', async () => {
    const live = subscribe(t.anon)
    expect((await live.next()).type).toBe('welcome')
    await t.owner.create({_id: 'drafts.live-1', _type: 'post', title: 'secret'})
    await t.owner.create({_id: 'inbox.live-1', _type: 'message'})
    await t.owner.create({_id: 'live-1', _type: 'post', title: 'public'})
    // Commits are delivered in order, so the first message is the public one's.
    expect(await live.next()).toEqual({
      type: 'message',
      id: String(t.lake.revision),
      tags: postTags,
    })
    live.close()
  })

  it('includeDrafts without a token is a Sanity-shaped 401, through the client too', async () => {
    const res = await t.fetch(`${path}?includeDrafts=true`)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({error: {type: 'httpUnauthorized'}})
    const wrong = await t.fetch(`${path}?includeDrafts=true`, {token: 'x'.repeat(40)})
    expect(wrong.status).toBe(401)

    // The client refuses includeDrafts without a token itself; withCredentials gets it to send
    // the request without one (no cookie is the lake's credential).
    const credentialed = localClient(t.url, {
      withCredentials: true,
    })
    const live = subscribe(credentialed, {includeDrafts: true})
    expect(await live.error()).toMatchObject({name: 'ConnectionFailedError', status: 401})
    live.close()
  })

  it('with the owner token and includeDrafts, drafts commits are messages too', async () => {
    const live = subscribe(t.owner, {includeDrafts: true})
    expect((await live.next()).type).toBe('welcome')
    await t.owner.create({_id: 'inbox.live-2', _type: 'message'})
    await t.owner.create({_id: 'drafts.live-2', _type: 'post', title: 'draft'})
    expect(await live.next()).toEqual({
      type: 'message',
      id: String(t.lake.revision),
      tags: [draftsTag],
    })
    await t.owner.createOrReplace({_id: 'live-2', _type: 'post', title: 'published'})
    expect(await live.next()).toMatchObject({type: 'message', tags: postTags})
    live.close()
  })

  it('query answers name the tags whose messages mean they may have changed', async () => {
    const anon = await t.anon.fetch('count(*)', {}, {filterResponse: false})
    expect(anon.syncTags).toEqual([anyTag])
    const owner = await t.owner.fetch(
      'count(*)',
      {},
      {filterResponse: false, perspective: 'drafts'},
    )
    expect(owner.syncTags).toEqual([anyTag, draftsTag])
    const published = await t.owner.fetch(
      'count(*)',
      {},
      {filterResponse: false, perspective: 'published'},
    )
    expect(published.syncTags).toEqual([anyTag])
  })

  it('tags by type: a commit fires the types it changed, and the reference tag only for a referenced document', async () => {
    const list = await t.anon.fetch(
      '*[_type == "post"]{title, "image": image.asset->url}',
      {},
      {filterResponse: false},
    )
    expect(list.syncTags).toEqual([refTag, typeTag('post')])
    // A huge one too: its tags come from the query worker's own parse, not the main thread's.
    const huge = await t.anon.fetch(
      '*[_type == "post" && title != $pad][0]._id',
      {pad: 'x'.repeat(20_000)},
      {filterResponse: false},
    )
    expect(huge.syncTags).toEqual([typeTag('post')])
    const live = subscribe(t.anon)
    expect((await live.next()).type).toBe('welcome')
    // Another type: the post list's tags are not among them.
    await t.owner.create({_id: 'tag-service', _type: 'service', title: 'Editing'})
    expect(await live.next()).toMatchObject({tags: [anyTag, typeTag('service')]})
    // An image nothing refers to yet: no page reaches it.
    await t.owner.create({_id: 'tag-image', _type: 'sanity.imageAsset', url: 'a'})
    expect(await live.next()).toMatchObject({tags: [anyTag, typeTag('sanity.imageAsset')]})
    // A post starts referring to it: the post's type fires.
    await t.owner.create({
      _id: 'tag-post',
      _type: 'post',
      image: {asset: {_type: 'reference', _ref: 'tag-image'}},
    })
    expect(await live.next()).toMatchObject({tags: postTags})
    // Now it is referenced: its change reaches every page that dereferences.
    await t.owner.patch('tag-image').set({url: 'b'}).commit()
    expect(await live.next()).toMatchObject({
      tags: [anyTag, refTag, typeTag('sanity.imageAsset')],
    })
    // A document that changes type fires both: it leaves one list and joins another.
    await t.owner.createOrReplace({_id: 'tag-service', _type: 'post', title: 'Editing'})
    expect(await live.next()).toMatchObject({tags: [anyTag, typeTag('post'), typeTag('service')]})
    live.close()
  })

  it('resumes from Last-Event-ID: what was missed, nothing, or restart when it cannot say', async () => {
    const before = String(t.lake.revision)
    await t.owner.create({_id: 'drafts.live-3', _type: 'post'})
    await t.owner.create({_id: 'live-3', _type: 'post'})
    const caughtUp = blocks(await t.fetch(path, {headers: {'last-event-id': before}}))
    // EventSource is told to come back after half a second, not its default 3 s.
    expect(await caughtUp()).toBe(`retry: ${reconnectDelayMs}`)
    // The welcome says which position it resumed from: nothing was lost.
    expect(await caughtUp()).toBe(
      `event: welcome\nid: ${t.lake.revision}\ndata: {"resumedFrom":"${before}"}`,
    )
    expect(await caughtUp()).toBe(
      `event: message\nid: ${t.lake.revision}\ndata: {"tags":${JSON.stringify(postTags)}}`,
    )

    // Only a draft since: an anonymous resume has missed nothing.
    const current = String(t.lake.revision)
    await t.owner.create({_id: 'drafts.live-4', _type: 'post'})
    const controller = new AbortController()
    const quiet = blocks(
      await t.fetch(path, {headers: {'last-event-id': current}, signal: controller.signal}),
    )
    expect(await quiet()).toMatch(/^retry: /)
    expect(await quiet()).toBe(
      `event: welcome\nid: ${t.lake.revision}\ndata: {"resumedFrom":"${current}"}`,
    )
    await t.owner.create({_id: 'live-4', _type: 'post'})
    expect(await quiet()).toBe(
      `event: message\nid: ${t.lake.revision}\ndata: {"tags":${JSON.stringify(postTags)}}`,
    )
    controller.abort()
    await caughtUp.cancel()

    for (const id of ['nonsense', String(t.lake.revision + 5)]) {
      const restart = blocks(await t.fetch(path, {headers: {'last-event-id': id}}))
      expect(await restart()).toMatch(/^retry: /)
      expect(await restart()).toBe(`event: restart\nid: ${t.lake.revision}\ndata: {}`)
      await restart.cancel()
    }
    expect(maxResumeGap).toBeGreaterThan(0)
  })

  it('caps open streams per client, listen streams included, with 429 and Retry-After, and frees a slot on disconnect', async () => {
    const listenPath = `/v${apiVersion}/data/listen/${defaultDataset}?query=*`
    const controllers = Array.from({length: maxAnonymousStreams}, () => new AbortController())
    // Half live, half listen: one count bounds both kinds of stream.
    const open = await Promise.all(
      controllers.map((controller, i) =>
        t.fetch(i % 2 === 0 ? path : listenPath, {signal: controller.signal}),
      ),
    )
    expect(open.map((res) => res.status)).toEqual(open.map(() => 200))
    const over = await t.fetch(path)
    expect(over.status).toBe(429)
    expect(over.headers.get('retry-after')).toBe('1')
    expect(await over.json()).toMatchObject({error: {type: 'tooManyRequests'}})
    for (const controller of controllers) controller.abort()
    // The server learns of each disconnect asynchronously; a slot comes back once it has.
    await vi.waitFor(
      async () => {
        const again = await t.fetch(path)
        await again.body?.cancel()
        expect(again.status).toBe(200)
      },
      {timeout: 5_000, interval: 50},
    )
  })

  it('ends the stream when its session is revoked', async () => {
    const session = authOf(t.lake).createSession()
    const res = await t.fetch(`${path}?includeDrafts=true`, {token: session})
    expect(res.status).toBe(200)
    const next = blocks(res)
    expect(await next()).toMatch(/^retry: /)
    expect(await next()).toMatch(/^event: welcome\n/)
    authOf(t.lake).revokeSession(session)
    await expect(next()).rejects.toThrow('stream ended')
  })
})

describe('live events when the server stops', () => {
  it('the real client is not told to give up: it reconnects by itself, keeping its position', async () => {
    const t = await startLakeUnderTest()
    try {
      const live = subscribe(t.anon)
      expect((await live.next()).type).toBe('welcome')
      let failed = false
      void live.error().then(() => (failed = true))
      await t.stop()
      // The stream ended without `disconnect`: EventSource schedules a reconnect (the lake is
      // gone, so it keeps trying) and the observable reports it instead of failing.
      expect(await live.next()).toEqual({type: 'reconnect'})
      expect(failed).toBe(false)
      live.close()
    } finally {
      await t.stop()
    }
  })
})

describe('live events lifecycle (in process)', () => {
  let dir: string
  let lake: Lake
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'live-'))
    lake = new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production', token: 'owner'})
  })
  afterAll(() => {
    lake.close()
    rmSync(dir, {recursive: true, force: true})
  })

  it('sends keep-alives, releases a disconnected client, and just ends the stream on close', async () => {
    const app = new Hono()
    const live = registerLiveEvents(app, lake, {keepAliveMs: 20})
    const a = blocks(await app.request('/v1/data/live/events/production'))
    const b = blocks(await app.request('/v1/data/live/events/production'))
    expect(live.connections).toBe(2)
    expect(await a()).toMatch(/^retry: /)
    expect(await a()).toMatch(/^event: welcome\n/)
    expect(await a()).toBe(': keepalive')
    await a.cancel()
    expect(live.connections).toBe(1)
    await lake.mutate([{create: {_id: 'x', _type: 'y'}}])
    const named: string[] = []
    while (named.at(-1) !== 'message') {
      const block = await b()
      if (block.startsWith('event: ')) named.push(block.split('\n')[0].slice('event: '.length))
    }
    live.close()
    expect(live.connections).toBe(0)
    for (;;) {
      try {
        const block = await b()
        if (block.startsWith('event: ')) named.push(block.split('\n')[0].slice('event: '.length))
      } catch {
        break
      }
    }
    expect(named).toEqual(['welcome', 'message'])
  })
})
