import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {isRecord} from '../util/isRecord.ts'
import {openSocialDatabase} from './database.ts'
import {SqliteMessageQueue} from './queue.ts'

const inboxOf = (message: unknown) => (isRecord(message) ? String(message.inbox) : '')

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'social-queue-'))
  dirs.push(dir)
  return dir
}

const delivery = (inbox: string, attempt = 0) => ({
  type: 'outbox',
  activityId: 'https://site.example/blog/a#create-r1',
  inbox,
  attempt,
})

/** Runs `listen` until `count` messages were handled (or one handler never returns). */
async function drain(
  queue: SqliteMessageQueue,
  handle: (message: unknown) => Promise<void>,
  count: number,
) {
  const abort = new AbortController()
  let handled = 0
  const done = queue.listen(
    async (message) => {
      await handle(message)
      if (++handled === count) abort.abort()
    },
    {signal: abort.signal},
  )
  return {done, abort}
}

describe('the delivery queue over SQLite', () => {
  it('delivers in order and survives a restart with what was not yet taken', async () => {
    const dir = dataDir()
    const first = new SqliteMessageQueue({db: openSocialDatabase(dir), name: 'outbox'})
    await first.enqueueMany([
      delivery('https://a.example/inbox'),
      delivery('https://b.example/inbox'),
    ])
    const reopened = new SqliteMessageQueue({db: openSocialDatabase(dir), name: 'outbox'})
    const seen: unknown[] = []
    const {done} = await drain(reopened, async (m) => void seen.push(m), 2)
    await done
    expect(seen).toEqual([delivery('https://a.example/inbox'), delivery('https://b.example/inbox')])
    expect((await reopened.getDepth()).queued).toBe(0)
  })

  it('queues one activity to one inbox once: a fan-out run twice adds no copy', async () => {
    const queue = new SqliteMessageQueue({db: openSocialDatabase(dataDir()), name: 'outbox'})
    await queue.enqueueMany([
      delivery('https://a.example/inbox'),
      delivery('https://b.example/inbox'),
    ])
    await queue.enqueueMany([
      delivery('https://a.example/inbox'),
      delivery('https://b.example/inbox'),
    ])
    expect((await queue.getDepth()).queued).toBe(2)
    // A retry is a new attempt: queued.
    await queue.enqueue(delivery('https://a.example/inbox', 1))
    expect((await queue.getDepth()).queued).toBe(3)
  })

  it('after a crash mid-send, sends that delivery again (same message), then the rest', async () => {
    const dir = dataDir()
    const db = openSocialDatabase(dir)
    const before = new SqliteMessageQueue({db, name: 'outbox'})
    const inboxes = ['a', 'b', 'c', 'd'].map((h) => `https://${h}.example/inbox`)
    await before.enqueueMany(inboxes.map((inbox) => delivery(inbox)))
    const sent: string[] = []
    // The process dies while sending to b: its handler never returns.
    let died!: () => void
    const dead = new Promise<void>((resolve) => (died = resolve))
    const abort = new AbortController()
    void before.listen(
      async (m) => {
        const inbox = inboxOf(m)
        sent.push(inbox)
        if (inbox.includes('b.')) {
          died()
          await new Promise(() => {})
        }
      },
      {signal: abort.signal},
    )
    await dead
    // A new process opens the same file (the dead one's handle is simply never used again).
    const resumed: unknown[] = []
    const after = new SqliteMessageQueue({
      db: openSocialDatabase(dir),
      name: 'outbox',
      onResumed: (messages) => resumed.push(...messages),
    })
    const {done} = await drain(after, async (m) => void sent.push(inboxOf(m)), 3)
    await done
    expect(sent).toEqual([inboxes[0], inboxes[1], inboxes[1], inboxes[2], inboxes[3]])
    expect(resumed).toEqual([delivery(inboxes[1])])
  })

  it('after a crash between queueing a retry and the acknowledgement, sends only the retry', async () => {
    const dir = dataDir()
    const before = new SqliteMessageQueue({db: openSocialDatabase(dir), name: 'outbox'})
    await before.enqueue(delivery('https://a.example/inbox'))
    let died!: () => void
    const dead = new Promise<void>((resolve) => (died = resolve))
    void before.listen(async () => {
      // What Fedify does on a failed send: the next attempt is queued, then the handler returns.
      await before.enqueue(delivery('https://a.example/inbox', 1))
      died()
      await new Promise(() => {})
    })
    await dead
    const after = new SqliteMessageQueue({db: openSocialDatabase(dir), name: 'outbox'})
    const seen: unknown[] = []
    const {done} = await drain(after, async (m) => void seen.push(m), 1)
    await done
    expect(seen).toEqual([delivery('https://a.example/inbox', 1)])
    expect((await after.getDepth()).queued).toBe(0)
  })
})
