/**
 * The lake write benchmark's load generator, in its own process so that it never shares the
 * server's event loop (bench/lakeWrites.ts starts it). `writers` loops run concurrently, each
 * awaiting one `client.create` (one mutation, one transaction) before sending the next, for
 * `seconds`; a create counts only once the server acknowledged it, i.e. after its durable commit.
 *
 * argv: <apiHost> <token> <writers> <seconds> <idPrefix>. Prints one JSON line: WriterReport.
 */
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

const [apiHost, token, writersArg, secondsArg, prefix] = process.argv.slice(2)
if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(apiHost ?? '')) throw new Error(`refusing a non-loopback apiHost: ${apiHost}`)
const writers = Number(writersArg)
const seconds = Number(secondsArg)
const client = createClient({projectId: 'scriptorium', dataset: 'production', apiVersion: '2023-07-29', apiHost, useProjectHostname: false, useCdn: false, token})
const doc = syntheticPost(99_999)

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
      await client.create({...doc, _id: `${prefix}-${n++}`})
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
const report: WriterReport = {acknowledged: times.length, errors, seconds: (last - start) / 1000, times, cpuMs: (cpu.user + cpu.system) / 1000}
console.log(JSON.stringify(report))
