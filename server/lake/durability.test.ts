import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {SanityClient} from '@sanity/client'
import {afterAll, expect, it} from 'vitest'
import {localClient} from '../../test/support/localClient.ts'

// kill -9 mid-stream: every acknowledged transaction must survive, none may be half-applied.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-durability-'))
const token = 'durability-test-token'
const children = new Set<ChildProcess>()

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dataDir, {recursive: true, force: true})
})

/** Starts the lake-only server on the shared data dir; resolves once it listens. */
function startChild(): Promise<{child: ChildProcess; client: SanityClient}> {
  const child = spawn(
    process.execPath,
    [new URL('./testing/lakeOnly.child.ts', import.meta.url).pathname],
    {
      env: {...process.env, DATA_DIR: dataDir, LAKE_TOKEN: token},
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  children.add(child)
  child.once('exit', () => children.delete(child))
  return new Promise((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`lake child exited early (${code})`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const port = out.match(/listening (\d+)/)?.[1]
      if (!port) return
      const apiHost = `http://127.0.0.1:${port}`
      const client = localClient(apiHost, {
        token,
      })
      resolve({child, client})
    })
  })
}

interface Ack {
  transactionId: string
  ids: string[]
}

it('keeps every acknowledged transaction across SIGKILL and applies none by half', async () => {
  const first = await startChild()
  await first.client.create({_id: 'counter', _type: 'counter', n: 0})
  const acks: Ack[] = []
  let next = 0
  let killed = false
  const exited = new Promise((resolve) => first.child.once('exit', resolve))

  // Four writers stream transactions; after 150 acknowledgements the server dies under them.
  const writer = async () => {
    while (!killed) {
      const n = next++
      const single = n % 2 === 0
      const ids = single ? [`single-${n}`] : [`multi-${n}-a`, `multi-${n}-b`, `multi-${n}-c`]
      const mutations = [
        ...ids.map((id) => ({create: {_id: id, _type: 'dur', n, payload: 'x'.repeat(500)}})),
        ...(single ? [] : [{patch: {id: 'counter', inc: {n: 1}}}]),
      ]
      try {
        const res = await first.client.mutate(mutations, {
          returnDocuments: false,
          visibility: 'sync',
        })
        acks.push({transactionId: res.transactionId, ids})
        if (acks.length === 150 && !killed) {
          killed = true
          first.child.kill('SIGKILL')
        }
      } catch {
        // Refused or cut off by the kill: not acknowledged, so it may or may not have landed.
        if (!killed) throw new Error('a write failed before the kill')
      }
    }
  }
  await Promise.all([writer(), writer(), writer(), writer()])
  await exited
  expect(acks.length).toBeGreaterThanOrEqual(150)

  const second = await startChild()
  const docs: Array<{_id: string; _rev: string}> = await second.client.fetch(
    '*[_type == "dur"]{_id, _rev}',
  )
  const revs = new Map(docs.map((d) => [d._id, d._rev]))
  for (const ack of acks) {
    for (const id of ack.ids)
      expect(revs.get(id), `${id} of acknowledged ${ack.transactionId}`).toBe(ack.transactionId)
  }
  // All or nothing: each multi-document transaction left three documents and one increment, or none.
  const groups = new Map<string, number>()
  for (const {_id} of docs) {
    const group = _id.match(/^multi-(\d+)-[abc]$/)?.[1]
    if (group) groups.set(group, (groups.get(group) ?? 0) + 1)
  }
  expect([...groups.values()].every((count) => count === 3)).toBe(true)
  expect((await second.client.getDocument('counter'))?.n).toBe(groups.size)
  // And the reopened lake takes writes again.
  await expect(second.client.create({_id: 'after-restart', _type: 'dur'})).resolves.toMatchObject({
    _id: 'after-restart',
  })
  second.child.kill('SIGTERM')
}, 90_000)
