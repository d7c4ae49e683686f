/**
 * A load generator of bench/hostile.ts in a process of its own, so that neither the honest
 * client nor the attackers share an event loop with the server or with each other.
 *
 *   node bench/hostile.child.ts honest <config.json>   paced honest requests; prints a report
 *   node bench/hostile.child.ts attack <config.json>   every attacker at once until SIGTERM
 *
 * Every request goes to the server on loopback; attackers bind their own 127.0.0.x address so
 * that the server sees distinct clients. Each loop is bounded in concurrency and stops at the
 * configured deadline even if never told to.
 */
import {readFileSync} from 'node:fs'
import {request, type IncomingMessage} from 'node:http'
import {connect} from 'node:net'

export interface HostileConfig {
  /** http://127.0.0.1:port of the server. */
  url: string
  seconds: number
  /** Honest requests per second, spread evenly over `paths`. */
  rate: number
  paths: string[]
  /** Attack inputs prepared by bench/hostile.ts. */
  imagePath: string
  /** Loopback addresses the attackers bind, one client each; one per attack at least. */
  attackers: string[]
}

export interface HonestReport {
  latencies: number[]
  errors: number
  statuses: Record<string, number>
}

export interface AttackReport {
  sent: Record<string, number>
  statuses: Record<string, number>
}

const [role, configFile] = process.argv.slice(2)
const config = JSON.parse(readFileSync(configFile, 'utf8')) as HostileConfig
const deadline = Date.now() + config.seconds * 1000
const done = () => Date.now() >= deadline || stopping
let stopping = false
process.once('SIGTERM', () => (stopping = true))

interface Sent {
  status: number
  ms: number
}

/** One request; resolves with status 0 on a network error. Bodies are drained, not kept. */
function send(
  path: string,
  options: {localAddress?: string; method?: string; headers?: Record<string, string>} = {},
  body?: string,
  timeoutMs = 30_000,
): Promise<Sent> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      `${config.url}${path}`,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (res: IncomingMessage) => {
        res.resume()
        res.on('end', () => resolve({status: res.statusCode ?? 0, ms: performance.now() - started}))
        res.on('error', () => resolve({status: 0, ms: performance.now() - started}))
      },
    )
    req.setTimeout(timeoutMs, () => req.destroy())
    req.on('error', () => resolve({status: 0, ms: performance.now() - started}))
    req.end(body)
  })
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function honest(): Promise<HonestReport> {
  const report: HonestReport = {latencies: [], errors: 0, statuses: {}}
  const interval = 1000 / config.rate
  const inFlight: Promise<void>[] = []
  // Open loop: requests leave on schedule whatever the server's latency, so a stall shows up
  // in the percentiles instead of slowing the client down (coordinated omission).
  for (let i = 0, start = performance.now(); !done(); i++) {
    const due = start + i * interval
    const delay = due - performance.now()
    if (delay > 0) await wait(delay)
    const path = config.paths[i % config.paths.length]
    inFlight.push(
      send(path, {localAddress: '127.0.0.1'}).then(({status, ms}) => {
        report.statuses[status] = (report.statuses[status] ?? 0) + 1
        if (status >= 200 && status < 400) report.latencies.push(ms)
        else report.errors++
      }),
    )
    if (inFlight.length > 1000) await Promise.all(inFlight.splice(0))
  }
  await Promise.all(inFlight)
  return report
}

const zeros = JSON.stringify(Array(400).fill(0))
const runaway = 'count($a[count($a[count($a[@==1])==0])>0])'
const api = '/v2023-07-29'

/** Each attack: what one attacker client does, in a loop, until the deadline. */
type Attack = (from: string, count: (status: number) => void) => Promise<void>

/** Queries that would run for seconds, anonymous, three at a time from one client. */
const runawayQueries: Attack = async (from, count) => {
  const path = `${api}/data/query/production?query=${encodeURIComponent(runaway)}&%24a=${encodeURIComponent(zeros)}`
  await Promise.all(
    [0, 1, 2].map(async () => {
      while (!done()) count((await send(path, {localAddress: from})).status)
    }),
  )
}

const attacks: Record<string, Attack> = {
  // Three clients, as in the issue: one client alone is capped sooner.
  runawayQueriesA: runawayQueries,
  runawayQueriesB: runawayQueries,
  runawayQueriesC: runawayQueries,
  // A listen filter as expensive as the runaway query, opened again as soon as it ends.
  async expensiveListens(from, count) {
    const filter = `*[${runaway} > 0]`
    const path = `${api}/data/listen/production?query=${encodeURIComponent(filter)}&%24a=${encodeURIComponent(zeros)}`
    while (!done()) count((await send(path, {localAddress: from}, undefined, 3000)).status)
  },
  // A POSTed query body that never ends, without Content-Length.
  async chunkedFlood(from, count) {
    while (!done()) {
      count(
        await new Promise<number>((resolve) => {
          const req = request(`${config.url}${api}/data/query/production`, {
            method: 'POST',
            headers: {'content-type': 'application/json', 'transfer-encoding': 'chunked'},
            localAddress: from,
          })
          const chunk = Buffer.alloc(64 * 1024, 0x20)
          let sent = 0
          const pump = () => {
            while (!req.destroyed && sent < 256 * 1024 * 1024 && !done()) {
              sent += chunk.length
              if (!req.write(chunk)) return void req.once('drain', pump)
            }
            req.end()
          }
          req.on('response', (res) => {
            res.resume()
            req.destroy()
            resolve(res.statusCode ?? 0)
          })
          req.on('error', () => resolve(0))
          pump()
        }),
      )
      await wait(20)
    }
  },
  // Connections that send their headers one byte at a time, 64 at once, reopened when closed.
  async slowloris(from, count) {
    const head = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(4000)}\r\n\r\n`
    await Promise.all(
      Array.from({length: 64}, async () => {
        while (!done()) {
          await new Promise<void>((resolve) => {
            const socket = connect({
              host: new URL(config.url).hostname,
              port: Number(new URL(config.url).port),
              localAddress: from,
            })
            let i = 0
            const timer = setInterval(() => {
              if (done() || i >= head.length) return socket.destroy()
              socket.write(head[i++])
            }, 1000)
            socket.on('close', () => {
              clearInterval(timer)
              count(0)
              resolve()
            })
            socket.on('error', () => {})
          })
          await wait(100)
        }
      }),
    )
  },
  // Many listen streams from one client, held open.
  async listenerFlood(from, count) {
    const path = `${api}/data/listen/production?query=${encodeURIComponent('*[_type == "post"]')}`
    await Promise.all(
      Array.from({length: 24}, async () => {
        while (!done()) {
          const {status} = await send(path, {localAddress: from}, undefined, 5000)
          count(status)
          if (status !== 200) await wait(200)
        }
      }),
    )
  },
  // The largest transform there is, with a new quality each time.
  async imageFlood(from, count) {
    await Promise.all(
      [0, 1, 2, 3].map(async (lane) => {
        for (let q = lane; !done(); q += 4) {
          const path = `${config.imagePath}?w=8192&h=8192&dpr=3&q=${(q % 100) + 1}&fm=png`
          count((await send(path, {localAddress: from})).status)
        }
      }),
    )
  },
  // Token guessing on the bearer API.
  async badTokens(from, count) {
    for (let i = 0; !done(); i++) {
      const headers = {authorization: `Bearer guess-${i}-${'x'.repeat(40)}`}
      count((await send(`${api}/users/me`, {localAddress: from, headers})).status)
    }
  },
}

async function attack(): Promise<AttackReport> {
  const report: AttackReport = {sent: {}, statuses: {}}
  // BENCH_HOSTILE_ATTACKS=imageFlood,slowloris runs only those (to find what costs what).
  const only = process.env.BENCH_HOSTILE_ATTACKS?.split(',')
  const names = Object.keys(attacks).filter((name) => !only || only.includes(name))
  await Promise.all(
    names.map((name) => {
      const from = config.attackers[Object.keys(attacks).indexOf(name)]
      report.sent[name] = 0
      return attacks[name](from, (status) => {
        report.sent[name]++
        const key = `${name} ${status}`
        report.statuses[key] = (report.statuses[key] ?? 0) + 1
      })
    }),
  )
  return report
}

const report = role === 'honest' ? await honest() : await attack()
process.stdout.write(JSON.stringify(report))
process.exit(0)
