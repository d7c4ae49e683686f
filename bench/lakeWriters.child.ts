/**
 * The lake write benchmark's load generator, in its own process so that it never shares the
 * server's event loop (bench/lakeWrites.ts starts it). `writers` loops run concurrently, each
 * awaiting one create (one mutation, one transaction) before sending the next, for `seconds`;
 * a create counts only once the server acknowledged it, i.e. after its durable commit.
 * Client `sanity` is @sanity/client's `create`; `http` sends the very same request (path,
 * query, headers, body) with node:http keep-alive, a lighter load generator that shows what
 * the server itself can take.
 *
 * argv: <apiHost> <token> <writers> <seconds> <idPrefix> [sanity|http]. Prints one JSON line.
 */
import {Agent, request} from 'node:http'
import {createClient} from '@sanity/client'
import {syntheticPost} from './synthetic.ts'

export interface WriterReport {
  /** Acknowledged creates (each one a durable transaction). */
  acknowledged: number
  errors: number
  /** Wall time from the first request to the last acknowledgement, seconds. */
  seconds: number
  /** Each acknowledged request's latency, ms. */
  times: number[]
  /** CPU time of this (load generator) process, ms. */
  cpuMs: number
}

const [apiHost, token, writersArg, secondsArg, prefix, mode = 'sanity'] = process.argv.slice(2)
if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(apiHost ?? ''))
  throw new Error(`refusing a non-loopback apiHost: ${apiHost}`)
const writers = Number(writersArg)
const seconds = Number(secondsArg)
const client = createClient({
  projectId: 'scriptorium',
  dataset: 'production',
  apiVersion: '2023-07-29',
  apiHost,
  useProjectHostname: false,
  useCdn: false,
  token,
})
const doc = syntheticPost(99_999)
const agent = new Agent({keepAlive: true})
const path =
  '/v2023-07-29/data/mutate/production?returnIds=true&returnDocuments=true&visibility=sync'

/** POST /data/mutate exactly as @sanity/client's create sends it; rejects unless 200. */
function httpCreate(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${apiHost}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          if (res.statusCode !== 200)
            return reject(new Error(`${res.statusCode}: ${Buffer.concat(chunks).toString()}`))
          JSON.parse(Buffer.concat(chunks).toString())
          resolve()
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
const create = (id: string): Promise<unknown> =>
  mode === 'http'
    ? httpCreate(JSON.stringify({mutations: [{create: {...doc, _id: id}}]}))
    : client.create({...doc, _id: id})

const times: number[] = []
let errors = 0
let n = 0
const cpu0 = process.cpuUsage()
const start = performance.now()
const until = start + seconds * 1000
let last = start
const writer = async () => {
  while (performance.now() < until) {
    const t0 = performance.now()
    try {
      await create(`${prefix}-${n++}`)
      last = performance.now()
      times.push(last - t0)
    } catch (error) {
      errors++
      if (errors === 1) console.error('[lake writer]', error)
    }
  }
}
await Promise.all(Array.from({length: writers}, writer))
const cpu = process.cpuUsage(cpu0)
const report: WriterReport = {
  acknowledged: times.length,
  errors,
  seconds: (last - start) / 1000,
  times,
  cpuMs: (cpu.user + cpu.system) / 1000,
}
console.log(JSON.stringify(report))
agent.destroy()
