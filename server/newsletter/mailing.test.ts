import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {Lake} from '../lake/index.ts'
import type {OutgoingMail} from './mailer.ts'
import {mailingId, Mailings, type MailingOptions} from './mailing.ts'

// The new-post mail in process, on a real lake: what it sends is what `send` receives (the
// SMTP side, and crashes mid-send, are e2e/newsletter-*.test.ts's).
const siteUrl = 'http://localhost:3000'
let dataDir: string
let lake: Lake
let mailings: Mailings | undefined
const sent: OutgoingMail[] = []

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-mailing-'))
  lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production'})
  sent.length = 0
  await lake.mutate([
    subscriber('ada', 'ada@example.com', 'active'),
    subscriber('bob', 'bob@example.com', 'active'),
    subscriber('eve', 'eve@example.com', 'pending'),
  ])
})

afterEach(async () => {
  await mailings?.close()
  mailings = undefined
  lake.close()
  rmSync(dataDir, {recursive: true, force: true})
})

function subscriber(hash: string, email: string, status: string) {
  return {create: {_id: `subscriber.${hash}`, _type: 'subscriber', email, status}}
}

function post(id: string, title: string, extra: Record<string, unknown> = {}) {
  return {
    createOrReplace: {
      _id: id,
      _type: 'post',
      title,
      slug: {_type: 'slug', current: id},
      excerpt: `About ${title}`,
      ...extra,
    },
  }
}

function start(options: Partial<MailingOptions> = {}): Mailings {
  mailings = new Mailings({
    lake,
    links: {siteUrl, secret: Buffer.alloc(32, 7), now: () => new Date()},
    graceMs: 0,
    perMinute: Infinity,
    send: async (mail) => {
      sent.push(mail)
    },
    ...options,
  })
  mailings.start()
  return mailings
}

/** Waits on the lake's query workers, which start slowly on a busy machine. */
const settled = {timeout: 30_000, interval: 20}

/** Resolves once the first pass has drawn the back catalogue's line (newsletter.state). */
async function started(options: Partial<MailingOptions> = {}): Promise<Mailings> {
  const running = start(options)
  await vi.waitFor(() => expect(lake.getDocument('newsletter.state')).toBeDefined(), settled)
  return running
}

const mailing = (postId: string) => lake.getDocument(mailingId(postId))

describe('the new-post mail', () => {
  it('mails a first publish once to each active subscriber, then marks the mailing sent', async () => {
    const running = await started()
    await lake.mutate([post('p1', 'Heron season')])
    running.poke()
    await vi.waitFor(() => expect(mailing('p1')?.status).toBe('sent'), settled)
    expect(sent.map((mail) => mail.to).sort()).toEqual(['ada@example.com', 'bob@example.com'])
    expect(sent[0].subject).toContain('Heron season')
    expect(sent[0].unsubscribeUrl).toMatch(/^http:\/\/localhost:3000\/api\/unsubscribe\?token=/)
    expect(mailing('p1')).toMatchObject({recipients: 2, sent: 2, failed: 0})
  })

  it('a refused send is failed with a retry time, retried after its backoff, then sent', async () => {
    let refusals = 1
    const running = await started({
      backoff: {baseMs: 50, capMs: 50},
      send: async (mail) => {
        if (mail.to === 'bob@example.com' && refusals-- > 0) throw new Error('452 mailbox busy')
        sent.push(mail)
      },
    })
    await lake.mutate([post('p2', 'Tides')])
    running.poke()
    await vi.waitFor(() => expect(mailing('p2')?.status).toBe('sent'), settled)
    expect(sent.map((mail) => mail.to).sort()).toEqual(['ada@example.com', 'bob@example.com'])
    const bob = lake.getDocument('delivery.p2.bob')
    expect(bob).toMatchObject({status: 'sent', attempts: 2})
    expect(mailing('p2')).toMatchObject({sent: 2, failed: 0, lastError: '452 mailbox busy'})
  })

  it('posts out before the newsletter started are not mailed; an unpublish in the grace period cancels', async () => {
    await lake.mutate([post('old', 'From the archive')])
    const running = start({graceMs: 3_600_000})
    await vi.waitFor(() => expect(mailing('old')?.status).toBe('existing'), settled)
    await lake.mutate([post('p3', 'Second thoughts')])
    running.poke()
    await vi.waitFor(() => expect(mailing('p3')?.status).toBe('scheduled'), settled)
    await lake.mutate([{delete: {id: 'p3'}}])
    running.poke()
    await vi.waitFor(() => expect(mailing('p3')?.status).toBe('cancelled'), settled)
    expect(sent).toEqual([])
  })
})
