import {spawn, type ChildProcess} from 'node:child_process'
import {Agent, get as httpGet} from 'node:http'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {SanityClient} from '@sanity/client'
import {afterAll, describe, expect, it} from 'vitest'
import {localClient} from '../test/support/localClient.ts'
import {inboxMessages, waitForMessage} from './contact/testing/inboxWait.ts'
import {SmtpSink} from '../test/support/smtpSink.ts'
import {startTestServer} from '../test/support/server.ts'
import {drainTimeoutMs} from './http/drain.ts'

// The graceful stop of the real process (server/main.ts, server/start.ts): SIGTERM under load
// exits 0 within 10 s and loses no write that was answered; listen streams just end (no
// `disconnect`, after which a client would never reconnect); a contact message being mailed stays outstanding; a second signal exits at once.
const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-stop-'))
  cleanup.push(() => rmSync(dir, {recursive: true, force: true}))
  return dir
}

interface Child {
  process: ChildProcess
  url: string
  exited: Promise<{code: number | null; at: number}>
}

/** `node server/main.ts` on free ports, HTTPS off; resolves once it prints its site URL. */
function startChild(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HTTPS_PORT: 'off',
      SEED: '0',
      BACKUP_INTERVAL_MINUTES: '0',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanup.push(() => void child.kill('SIGKILL'))
  const exited = new Promise<{code: number | null; at: number}>((resolve) =>
    child.once('exit', (code) => resolve({code, at: Date.now()})),
  )
  return new Promise((resolve, reject) => {
    let out = ''
    void exited.then(({code}) => reject(new Error(`server exited early (${code}): ${out}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = out.match(/Site:\s+(http:\/\/\S+)/)?.[1]
      if (url) resolve({process: child, url, exited})
    })
  })
}

function ownerClient(url: string, dataDir: string): SanityClient {
  return localClient(url, {
    token: readFileSync(join(dataDir, 'owner-token'), 'utf8').trim(),
    // A write that fails is simply not acknowledged; a retry would blur which ones were.
    maxRetries: 0,
  })
}

/** Reads a server-sent-events body to its end; the event names seen. */
async function eventNames(body: ReadableStream<Uint8Array>): Promise<string[]> {
  let text = ''
  const decoder = new TextDecoder()
  const reader = body.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read())
    text += decoder.decode(next.value)
  return [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1])
}

// Each test starts server/main.ts as a child (seed, workers) once or twice: a busy machine takes
// well over the unit project's 30 s.
describe('graceful stop', {timeout: 90_000}, () => {
  it('SIGTERM under concurrent writes exits 0 within 10 s, and every answered write is kept', async () => {
    const dataDir = tempDir()
    const first = await startChild(dataDir)
    const client = ownerClient(first.url, dataDir)
    const listen = await fetch(
      `${first.url}/v2023-07-29/data/listen/production?query=${encodeURIComponent('*[_type == "note"]')}`,
      {headers: {authorization: `Bearer ${client.config().token}`}},
    )
    expect(listen.status).toBe(200)
    const streamEvents = eventNames(listen.body!)

    const acknowledged: string[] = []
    let signalled: () => void = () => undefined
    const enough = new Promise<void>((resolve) => (signalled = resolve))
    // Eight writers, each creating documents one after another until the server stops answering.
    const writers = Array.from({length: 8}, async (_, writer) => {
      for (let n = 0; ; n++) {
        const id = `note-${writer}-${n}`
        try {
          await client.create({_id: id, _type: 'note', writer, n})
        } catch {
          return
        }
        acknowledged.push(id)
        if (acknowledged.length === 80) signalled()
      }
    })
    await enough
    const stoppedAt = Date.now()
    first.process.kill('SIGTERM')
    await Promise.all(writers)
    const {code, at} = await first.exited
    expect(code).toBe(0)
    expect(at - stoppedAt).toBeLessThan(10_000)
    const events = await streamEvents
    expect(events[0]).toBe('welcome')
    expect(events).not.toContain('disconnect')

    const second = await startChild(dataDir)
    const stored = await ownerClient(second.url, dataDir).fetch<string[]>('*[_type == "note"]._id')
    expect(acknowledged.length).toBeGreaterThanOrEqual(80)
    expect(new Set(stored)).toEqual(new Set([...stored, ...acknowledged]))
    second.process.kill('SIGINT')
    expect((await second.exited).code).toBe(0)
  })

  it('SIGTERM while pages render: every render finishes, reading the lake during the drain', async () => {
    const dataDir = tempDir()
    const child = await startChild(dataDir, {SEED: '1'})
    // A server that has been up has its renderer loaded.
    expect((await fetch(`${child.url}/`)).status).toBe(200)
    const query = encodeURIComponent('*[_type == "post"][0...16].slug.current')
    const slugs = (
      (await (
        await fetch(`${child.url}/v2023-07-29/data/query/production?query=${query}`)
      ).json()) as {result: string[]}
    ).result
    expect(slugs.length).toBeGreaterThan(8)
    // 24 connections the server has accepted (a stop closes what is still in its backlog).
    const agent = new Agent({keepAlive: true, maxSockets: 24})
    cleanup.push(() => agent.destroy())
    const get = (path: string) =>
      new Promise<{status: number; text: string; at: number}>((resolve, reject) => {
        const req = httpGet(`${child.url}${path}`, {agent}, (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (text += chunk))
          res.on('end', () => resolve({status: res.statusCode ?? 0, text, at: Date.now()}))
        })
        req.on('error', reject)
      })
    await Promise.all(Array.from({length: 24}, () => get('/healthz')))
    // Distinct pages, so each is its own render with its own lake query over loopback: a post
    // whose query failed would say 'Post not found.' (404), a blog list a 500.
    const paths = [
      ...slugs.map((slug) => `/blog/${slug}`),
      ...[7, 8, 9, 10, 11, 13, 14, 15].map((count) => `/blog?count=${count}`),
    ]
    const answers = paths.map(get)
    // Once the first is answered the others are accepted and rendering.
    await Promise.race(answers)
    const stoppedAt = Date.now()
    child.process.kill('SIGTERM')
    const answered = await Promise.all(answers)
    for (const [i, answer] of answered.entries()) {
      expect(answer.status, paths[i]).toBe(200)
      expect(answer.text, paths[i]).not.toContain('Post not found.')
    }
    // Renders were in flight during the drain, not all done before the signal.
    expect(answered.filter((answer) => answer.at > stoppedAt).length).toBeGreaterThan(0)
    expect((await child.exited).code).toBe(0)
  })

  it('a message being mailed at SIGTERM stays outstanding and is mailed after the restart', async () => {
    const dataDir = tempDir()
    const sink = await new SmtpSink().listen()
    cleanup.push(() => sink.close())
    const env = {SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'owner@writer.example'}
    const first = await startChild(dataDir, env)
    // The mail server holds the message (before accepting it) until the stop has begun.
    let stopping: () => void = () => undefined
    const stopped = new Promise<void>((resolve) => (stopping = resolve))
    sink.beforeAccept = async () => {
      first.process.kill('SIGTERM')
      stopping()
      await first.exited
    }
    const res = await fetch(`${first.url}/api/contact`, {
      method: 'POST',
      body: new URLSearchParams({name: 'Ada', email: 'ada@example.com', message: 'At the stop.'}),
      redirect: 'manual',
    })
    expect(res.status).toBe(303)
    await stopped
    expect((await first.exited).code).toBe(0)
    sink.beforeAccept = undefined

    const server = await startTestServer({...env, DATA_DIR: dataDir, SEED: '0'})
    cleanup.push(() => server.stop())
    const [message] = await inboxMessages(server.lake!)
    const sent = await waitForMessage(server.lake!, message._id, (m) => m.status === 'sent')
    expect(sent.attempts).toBe(2)
  })

  it('a second signal exits at once while a request is still in flight', async () => {
    const dataDir = tempDir()
    const child = await startChild(dataDir)
    const client = ownerClient(child.url, dataDir)
    // An owner query of about 10 s (server/lake/api/hostile.test.ts) keeps the drain waiting.
    const zeros = Array.from({length: 400}, () => 0)
    const long = client
      .fetch('count($a[count($a[count($a[@==1])==0])>0])', {a: zeros})
      .catch((error: unknown) => error)
    // The first signal may only arrive once the query is running on a worker.
    await expect
      .poll(async () => (await fetch(`${child.url}/readyz`)).status, {timeout: 5_000})
      .toBe(200)
    child.process.kill('SIGTERM')
    const first = await Promise.race([
      child.exited,
      new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 500)),
    ])
    expect(first).toBe('waiting')
    const secondAt = Date.now()
    child.process.kill('SIGTERM')
    const {code, at} = await child.exited
    expect(code).toBe(143)
    // The query and the drain would each hold it ~10 s; a busy machine takes a second or two.
    expect(at - secondAt).toBeLessThan(drainTimeoutMs / 2)
    await long
  })
})
