import {createClient} from '@sanity/client'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {ContentEvents, type ContentChange} from './contentEvents.ts'
import {
  apiVersion,
  fakeLiveApi,
  frame,
  type FakeLiveApi,
  type Script,
} from './testing/fakeLiveApi.ts'

// The hosted path: ContentEvents through the real @sanity/client against a Live Content API
// server speaking the wire format of the client's own tests (welcome, message, restart, goaway,
// error, and non-200 answers), scripted one connection at a time.

let api: FakeLiveApi | undefined
let events: ContentEvents | undefined
afterEach(async () => {
  events?.close()
  await api?.close()
})

/** ContentEvents on the real client (CDN on, as the site's), with a short backoff. */
async function follow(scripts: Script[]) {
  api = await fakeLiveApi()
  api.script(...scripts)
  const changes: ContentChange[] = []
  const subject = new ContentEvents({minBackoffMs: 20, maxBackoffMs: 100})
  events = subject
  subject.onChange((change) => changes.push(change))
  const client = createClient({
    projectId: 'abc123',
    dataset: 'production',
    apiVersion,
    apiHost: api.url,
    useProjectHostname: false,
    useCdn: true,
  })
  subject.start(() => client.live.events())
  return {api, events: subject, changes}
}

const until = (check: () => void) => vi.waitFor(check, {timeout: 5_000, interval: 10})

describe('ContentEvents against a Live Content API', () => {
  it('caches nothing before welcome; a message names its tags; restart drops everything', async () => {
    const {api, events, changes} = await follow([{frames: []}])
    await until(() => expect(api.connections).toHaveLength(1))
    expect(events.state).toBe('connecting')
    api.send(frame('welcome', {}, 'MXxhYVlRejdGZUpPMA'))
    await until(() => expect(events.state).toBe('live'))
    api.send(frame('message', {tags: ['s1:abc', 's1:def']}, 'MXxiYg'))
    await until(() => expect(changes).toEqual([{kind: 'tags', tags: ['s1:abc', 's1:def']}]))
    expect(events.lastEventId).toBe('MXxiYg')
    api.send(frame('restart', {}, 'MXxjYw'))
    await until(() => expect(changes.at(-1)).toEqual({kind: 'reset'}))
    expect(events.state).toBe('live')
  })

  it('goaway: drops everything, serves uncached, and subscribes again after a backoff', async () => {
    const {api, events, changes} = await follow([
      {frames: [frame('welcome', {}, 'a1'), frame('goaway', {reason: 'too many'}, 'a2')]},
      {frames: [frame('welcome', {}, 'b1')]},
    ])
    await until(() => expect(api.connections).toHaveLength(2))
    await until(() => expect(events.state).toBe('live'))
    expect(changes).toContainEqual({kind: 'reset'})
    expect(events.counts.failures).toBe(1)
  })

  it('an error event fails the stream: reset, then a new subscription', async () => {
    const {api, events, changes} = await follow([
      {frames: [frame('welcome', {}, 'a1'), frame('error', {status: 500, message: 'boom'})]},
      {frames: [frame('welcome', {}, 'b1')]},
    ])
    await until(() => expect(api.connections).toHaveLength(2))
    await until(() => expect(events.state).toBe('live'))
    expect(changes).toEqual([{kind: 'reset'}, {kind: 'reset'}])
  })

  it('a 404 (which the client never retries) is retried by us with a backoff', async () => {
    const {api, events} = await follow([
      {status: 404},
      {status: 404},
      {frames: [frame('welcome', {}, 'c1')]},
    ])
    await until(() => expect(events.state).toBe('live'))
    expect(api.connections).toHaveLength(3)
    expect(events.counts.failures).toBe(2)
  })

  it('a dropped stream resumes with Last-Event-ID; a welcome that resumed from there keeps the caches', async () => {
    const {api, events, changes} = await follow([
      {frames: [frame('welcome', {}, '7'), frame('message', {tags: ['s1:x']}, '8')], end: true},
      {frames: [frame('welcome', {resumedFrom: '8'}, '9')]},
    ])
    await until(() => expect(api.connections).toEqual([undefined, '8']))
    await until(() => expect(events.lastEventId).toBe('9'))
    expect(changes).toEqual([{kind: 'tags', tags: ['s1:x']}])
    expect(events.state).toBe('live')
  })

  it('429 on the resume: the client opens a fresh stream without the position, and everything is dropped', async () => {
    const {api, events, changes} = await follow([
      {frames: [frame('welcome', {}, '7')], end: true},
      {status: 429},
      {frames: [frame('welcome', {}, '12')]},
    ])
    // The client waits 1 s after a 429, then opens a new EventSource: no Last-Event-ID.
    await until(() => expect(api.connections).toEqual([undefined, '7', undefined]))
    await until(() => expect(events.lastEventId).toBe('12'))
    expect(changes).toEqual([{kind: 'reset'}])
    expect(events.state).toBe('live')
    expect(events.counts.failures).toBe(0)
  })
})

describe('ContentEvents.upToDate (one process with its lake)', () => {
  it('answers at once when the stream has delivered the last public commit, else waits for it', async () => {
    const {api, events, changes} = await follow([{frames: [frame('welcome', {}, '3')]}])
    await until(() => expect(events.live).toBe(true))
    let committed = 3
    events.followCommits(() => committed)
    expect(events.upToDate()).toBe(true)
    committed = 5
    const waiting = events.upToDate()
    expect(waiting).not.toBe(true)
    api.send(frame('message', {tags: ['s1:public']}, '5'))
    expect(await waiting).toBe(true)
    // The pages were dropped before the waiter went on.
    expect(changes).toEqual([{kind: 'tags', tags: ['s1:public']}])
    committed = 6
    expect(await events.upToDate(30)).toBe(false)
  })
})
