import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {getFrom, queryUrl, type Answer} from '../../../test/support/fromAddress.ts'
import {rssAfterWorkerLossMb, workerHeapMb} from './queryBudgets.ts'

// A query that exhausts its worker's heap, against a lake-only server in a process of its own (so
// that its resident memory is the lake's alone): a 4xx for it, answers for everyone else, a new
// worker in its place, and the process's memory back within its bound.
let child: ChildProcess
let url: string
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-worker-memory-'))
  child = spawn(
    process.execPath,
    [new URL('../testing/lakeOnly.child.ts', import.meta.url).pathname],
    {env: {...process.env, DATA_DIR: dataDir}, stdio: ['ignore', 'pipe', 'inherit']},
  )
  url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`lake exited early (${code}): ${out}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const port = out.match(/listening (\d+)/)?.[1]
      if (port) resolve(`http://127.0.0.1:${port}`)
    })
  })
})
afterAll(async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  rmSync(dataDir, {recursive: true, force: true})
})

/** The server process's resident memory now and at its peak, in MiB (/proc/<pid>/status). */
function memoryMb(): {rss: number; peak: number} {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024
  return {rss: field('VmRSS'), peak: field('VmHWM')}
}

/** 4,000 projections, each of a new 40,000-number array: about 1.3 GB if it could finish. */
const hog = {
  query: 'count($a[]{"x": $b + $b}.x)',
  params: {
    a: Array.from({length: 4_000}, (_, i) => ({i})),
    b: Array.from({length: 20_000}, (_, i) => i),
  },
}

describe('a query that exhausts its worker’s memory', () => {
  it(`is a 4xx (a worker's heap is ${workerHeapMb} MiB); others are answered; a new worker serves; RSS returns within ${rssAfterWorkerLossMb} MiB`, async () => {
    // Workers running, as on a server that has been up.
    expect((await getFrom(queryUrl(url, 'count(*)'), '127.0.0.41')).status).toBe(200)
    const before = memoryMb()
    // The owner's lane (10 s budget), so memory runs out before time does.
    const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()
    const hogAnswer = fetch(`${url}/v2023-07-29/data/query/production`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: `Bearer ${token}`},
      body: JSON.stringify(hog),
    })
    let hogDone = false
    void hogAnswer.finally(() => (hogDone = true))
    const honest: Answer[] = []
    for (let i = 0; !hogDone || honest.length < 3; i++)
      honest.push(await getFrom(queryUrl(url, `count(*[_id == "m${i}"])`), '127.0.0.42'))

    const refused = await hogAnswer
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({error: {type: 'queryTooExpensive'}})
    for (const answer of honest) {
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toMatchObject({result: 0})
    }
    // The worker did fill its heap, and was replaced: the lake answers again.
    expect(memoryMb().peak).toBeGreaterThan(before.rss + 128)
    expect((await getFrom(queryUrl(url, 'count(*) + 1'), '127.0.0.43')).status).toBe(200)
    // ... and the lost worker's memory is given back.
    await expect
      .poll(() => memoryMb().rss, {timeout: 10_000, interval: 200})
      .toBeLessThan(before.rss + rssAfterWorkerLossMb)
  }, 40_000)
})
