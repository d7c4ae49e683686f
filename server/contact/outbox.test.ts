import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {Lake} from '../lake/index.ts'
import {Inbox, type ContactMessage} from './inbox.ts'
import type {Deliver} from './mailer.ts'
import {backoffDelay} from '../util/backoff.ts'
import {Outbox} from './outbox.ts'
import {inboxMessages, waitForMessage} from './testing/inboxWait.ts'

const submission = {name: 'Ada', email: 'ada@example.com', message: 'Hello', spam: false}
let dataDir: string
let lake: Lake
let inbox: Inbox

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-outbox-'))
  lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production'})
  inbox = new Inbox(lake)
})
afterEach(() => {
  lake.close()
  rmSync(dataDir, {recursive: true, force: true})
})

/** A delivery seam that fails `failures` times, then accepts; it records every call. */
function flakyDelivery(failures: number): {deliver: Deliver; calls: string[]} {
  const calls: string[] = []
  return {
    calls,
    deliver: async (message: ContactMessage) => {
      calls.push(message._id)
      if (calls.length <= failures) throw new Error(`connect ECONNREFUSED (call ${calls.length})`)
    },
  }
}

describe('backoffDelay', () => {
  it('doubles from the base up to the cap', () => {
    const options = {baseMs: 30_000, capMs: 3_600_000}
    expect([1, 2, 3, 4, 8, 20].map((n) => backoffDelay(n, options))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000,
    ])
  })
})

describe('Outbox', () => {
  it('mails a stored message and marks it sent with one attempt', async () => {
    const {deliver, calls} = flakyDelivery(0)
    const outbox = new Outbox(inbox, deliver)
    const {_id} = await inbox.receive(submission, new Date('2026-11-21T10:00:00Z'))
    outbox.enqueue(_id)
    const sent = await waitForMessage(lake, _id, (m) => m.status === 'sent')
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 1,
      receivedAt: '2026-11-21T10:00:00.000Z',
    })
    expect(sent.lastError).toBeUndefined()
    expect(calls).toEqual([_id])
    await outbox.close()
  })

  it('retries with backoff, recording each failure, until the server accepts', async () => {
    const {deliver, calls} = flakyDelivery(2)
    const outbox = new Outbox(inbox, deliver, {baseMs: 20, capMs: 40})
    const {_id} = await inbox.receive(submission, new Date())
    outbox.enqueue(_id)
    const failed = await waitForMessage(lake, _id, (m) => m.status === 'failed')
    expect(failed).toMatchObject({attempts: 1, lastError: 'connect ECONNREFUSED (call 1)'})
    const sent = await waitForMessage(lake, _id, (m) => m.status === 'sent')
    expect(sent.attempts).toBe(3)
    expect(sent.lastError).toBeUndefined()
    expect(calls).toHaveLength(3)
    await outbox.close()
  })

  it('resumes pending and failed messages on start, leaves sent and spam alone', async () => {
    const pending = await inbox.receive(submission, new Date('2026-11-21T10:00:00Z'))
    const failed = await inbox.receive(submission, new Date('2026-11-21T10:01:00Z'))
    await inbox.markFailed(failed._id, 'earlier failure')
    const sent = await inbox.receive(submission, new Date('2026-11-21T10:02:00Z'))
    await inbox.markSent(sent._id, new Date())
    await inbox.receive({...submission, spam: true}, new Date('2026-11-21T10:03:00Z'))

    const {deliver, calls} = flakyDelivery(0)
    const outbox = new Outbox(inbox, deliver)
    await outbox.start()
    await waitForMessage(lake, failed._id, (m) => m.status === 'sent')
    expect(calls).toEqual([pending._id, failed._id])
    expect((await inboxMessages(lake)).map((m) => m.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'spam',
    ])
    await outbox.close()
  })

  it('a resume that finishes after a message has failed keeps that message waiting out its backoff', async () => {
    // start() reads the outstanding messages from the lake; a message can arrive, be tried and
    // fail before that read answers (a POST right after boot). The read must not make it due again.
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slowInbox = Object.assign(Object.create(inbox) as Inbox, {
      outstanding: async () => {
        await gate
        return inbox.outstanding()
      },
    })
    const {deliver, calls} = flakyDelivery(1)
    const outbox = new Outbox(slowInbox, deliver, {baseMs: 60_000, capMs: 60_000})
    const resumed = outbox.start()
    const first = await inbox.receive(submission, new Date())
    outbox.enqueue(first._id)
    await waitForMessage(lake, first._id, (m) => m.status === 'failed')
    release()
    await resumed
    // The outbox works oldest-due first: had the resume made the failed message due, it would
    // be tried again before this one is sent.
    const second = await inbox.receive(submission, new Date())
    outbox.enqueue(second._id)
    await waitForMessage(lake, second._id, (m) => m.status === 'sent')
    expect(calls).toEqual([first._id, second._id])
    expect(lake.getDocument(first._id)?.attempts).toBe(1)
    await outbox.close()
  })

  it('drops a message deleted before its turn, and stops retrying once closed', async () => {
    const {deliver, calls} = flakyDelivery(Infinity)
    const outbox = new Outbox(inbox, deliver, {baseMs: 10, capMs: 10})
    const gone = await inbox.receive(submission, new Date())
    await lake.mutate([{delete: {id: gone._id}}])
    outbox.enqueue(gone._id)
    const kept = await inbox.receive(submission, new Date())
    outbox.enqueue(kept._id)
    await waitForMessage(lake, kept._id, (m) => m.attempts >= 2)
    await outbox.close()
    const attempts = lake.getDocument(kept._id)?.attempts
    expect(calls).not.toContain(gone._id)
    outbox.enqueue(kept._id)
    expect(lake.getDocument(kept._id)?.attempts).toBe(attempts)
    expect(lake.getDocument(kept._id)?.status).toBe('failed')
  })
})
