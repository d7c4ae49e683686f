import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {Lake} from '../lake.ts'
import {registerListen} from './listen.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {sseReader, type SseEvent} from '../../../test/support/sseReader.ts'

// The SSE wire protocol: ids and resume, keep-alives, disconnect, cleanup. Over HTTP/2 and the
// app's stop: server/start.test.ts.

describe('listener over the wire', () => {
  let t: LakeUnderTest
  const path =
    '/v2025-02-19/data/listen/production?query=' + encodeURIComponent('*[_type == "wire"]')
  beforeAll(async () => {
    t = await startLakeUnderTest()
  })
  afterAll(() => t.stop())

  async function open(query = '', headers: Record<string, string> = {}) {
    const controller = new AbortController()
    const res = await t.fetch(path + query, {token: t.token, headers, signal: controller.signal})
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    return {next: sseReader(res.body!), abort: () => controller.abort()}
  }

  it('replays what a resuming client missed (welcomeback), mid-transaction too; unknown ids get reset', async () => {
    const first = await open('&enableResume=true')
    const welcome = await first.next()
    expect(welcome).toMatchObject({event: 'welcome', id: String(t.lake.revision)})
    await t.owner.create({_id: 'w-1', _type: 'wire'})
    const seen = await first.next()
    expect(seen).toMatchObject({
      event: 'mutation',
      id: String(t.lake.revision),
      data: {documentId: 'w-1'},
    })
    first.abort()

    const two = await t.owner
      .transaction()
      .create({_id: 'w-2', _type: 'wire'})
      .create({_id: 'w-3', _type: 'wire'})
      .commit()
    await t.owner.create({_id: 'other', _type: 'unrelated'})
    await t.owner.patch('w-1').set({n: 1}).commit()

    const resumed = await open('&enableResume=true', {'last-event-id': seen.id!})
    expect(await resumed.next()).toMatchObject({event: 'welcomeback'})
    const b1 = await resumed.next()
    const b2 = await resumed.next()
    expect([b1, b2].map((e) => (e.data as {transactionId: string}).transactionId)).toEqual([
      two.transactionId,
      two.transactionId,
    ])
    expect(b1.id).toMatch(/^\d+:1$/)
    const c = await resumed.next()
    expect(c).toMatchObject({data: {documentId: 'w-1', transition: 'update'}})
    await t.owner.delete('w-1') // live events follow the replay
    expect(await resumed.next()).toMatchObject({data: {documentId: 'w-1', transition: 'disappear'}})
    resumed.abort()

    const midway = await open(`&lastEventId=${encodeURIComponent(b1.id!)}`)
    expect(await midway.next()).toMatchObject({event: 'welcomeback'})
    expect(await midway.next()).toMatchObject({id: b2.id, data: b2.data as object})
    midway.abort()

    const unknown = await open('&enableResume=true', {'last-event-id': '999999'})
    expect(await unknown.next()).toMatchObject({event: 'reset'})
    unknown.abort()
    // Without enableResume a reconnect is a fresh start, as on Sanity.
    const fresh = await open('', {'last-event-id': seen.id!})
    expect(await fresh.next()).toMatchObject({event: 'welcome'})
    fresh.abort()
  })

  it('keeps serving after clients disconnect', async () => {
    for (let i = 0; i < 5; i++) {
      const l = await open()
      await l.next()
      l.abort()
    }
    await t.owner.create({_id: 'after', _type: 'wire'})
    expect(await t.owner.getDocument('after')).toMatchObject({_id: 'after'})
  })
})

describe('listener lifecycle (in process)', () => {
  let dir: string
  let lake: Lake
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'listen-'))
    lake = new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production', token: 'owner'})
  })
  afterAll(() => {
    lake.close()
    rmSync(dir, {recursive: true, force: true})
  })

  it('sends keep-alives, releases a disconnected client, and just ends the stream on close', async () => {
    const app = new Hono()
    const listen = registerListen(app, lake, {keepAliveMs: 20})
    const a = await app.request('/v1/data/listen/production?query=*')
    const b = await app.request('/v1/data/listen/production?query=*')
    expect(listen.connections).toBe(2)
    const readA = sseReader(a.body!)
    expect(await readA()).toMatchObject({event: 'welcome'})
    expect(await readA()).toMatchObject({comment: 'keepalive'})
    await readA.cancel()
    expect(listen.connections).toBe(1)
    await lake.mutate([{create: {_id: 'x', _type: 'y'}}])
    const readB = sseReader(b.body!)
    const events: SseEvent[] = []
    // Filters are evaluated on the query pool: the event arrives a moment after the commit.
    while (events.at(-1)?.event !== 'mutation') events.push(await readB())
    listen.close()
    expect(listen.connections).toBe(0)
    for (;;) {
      try {
        events.push(await readB())
      } catch {
        break
      }
    }
    // Keep-alives (every 20 ms here) may fall anywhere between the events.
    const named = events.filter((e) => e.event !== undefined)
    // No `disconnect`: after one @sanity/client would never reconnect (below).
    expect(named.map((e) => e.event)).toEqual(['welcome', 'mutation'])
  })
})

describe('a listener when the lake restarts', () => {
  it('the real client.listen() is not told to give up: it reconnects and gets the next change', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'listen-restart-'))
    let t = await startLakeUnderTest({dataDir})
    const port = Number(new URL(t.url).port)
    const events: Array<{type: string; documentId?: string}> = []
    let failed: unknown
    const subscription = t
      .client()
      .listen('*[_type == "restart"]', {}, {events: ['welcome', 'mutation', 'reconnect']})
      .subscribe({next: (event) => events.push(event), error: (error: unknown) => (failed = error)})
    try {
      // vi.waitFor's default is 1 s: a busy machine takes longer to open the first stream.
      await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(['welcome']), {
        timeout: 15_000,
      })
      await t.stop()
      // The same lake again, on its data dir and address, as a restart of the process.
      t = await startLakeUnderTest({dataDir, port, token: t.token})
      await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('reconnect'), {
        timeout: 15_000,
      })
      await vi.waitFor(() => expect(events.at(-1)?.type).toBe('welcome'), {timeout: 15_000})
      await t.owner.create({_id: 'after-restart', _type: 'restart'})
      await vi.waitFor(
        () => expect(events.at(-1)).toMatchObject({type: 'mutation', documentId: 'after-restart'}),
        {timeout: 15_000},
      )
      expect(failed).toBeUndefined()
    } finally {
      subscription.unsubscribe()
      await t.stop()
      rmSync(dataDir, {recursive: true, force: true})
    }
  })
})
