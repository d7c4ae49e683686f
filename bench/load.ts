import autocannon from 'autocannon'
import {cpuSeconds} from './cpu.ts'
import {median, percentile} from './stats.ts'

export interface LoadResult {
  connections: number
  seconds: number
  /** Requests per second: the median over the slices, their min and max, and the overall mean. */
  rps: {median: number; min: number; max: number; mean: number}
  /** Latency percentiles in ms over every response of every slice. */
  p50: number
  p99: number
  /** Connection errors and timeouts; responses that were not 2xx are counted apart. */
  errors: number
  non2xx: number
  requests: number
  /** The server's own CPU time per request (user + system, all its processes), in ms. */
  cpuMsPerRequest: number
  /** The server's CPU use while loaded, in cores (1 = one core fully busy). */
  cores: number
}

/** A server to load: where, and which processes' CPU time to count. */
export interface Target {
  url: string
  pids: number[]
  /** Request headers (a browser's User-Agent, so reader statistics count the load: bench/server.ts). */
  headers?: Record<string, string>
}

/** Load-generator settings shared by every cell so ours and nginx's are measured alike. */
export const loadSeconds = Number(process.env.BENCH_SECONDS || 5)
export const connectionCounts = [1, 16, 64]

interface Slice {
  rps: number
  times: number[]
  errors: number
  non2xx: number
  requests: number
  cpu: number
}

/** One bounded autocannon run (keep-alive HTTP/1.1, one request in flight per connection). */
function slice({url, pids, headers}: Target, connections: number, seconds: number): Promise<Slice> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url))
    throw new Error(`refusing to load a non-loopback URL: ${url}`)
  const times: number[] = []
  const cpuBefore = cpuSeconds(pids)
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
        ...(headers ? {headers} : {}),
      },
      (error, result) => {
        if (error) return reject(error)
        const requests = result.requests.total
        const cpu = cpuSeconds(pids) - cpuBefore
        resolve({
          rps: requests / seconds,
          times,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          requests,
          cpu,
        })
      },
    )
    // autocannon's histogram keeps whole milliseconds; the raw times keep sub-ms latencies apart.
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
  })
}

function summarize(slices: Slice[], connections: number, sliceSeconds: number): LoadResult {
  const times = slices.flatMap((s) => s.times)
  const rates = slices.map((s) => s.rps)
  const requests = slices.reduce((sum, s) => sum + s.requests, 0)
  const cpu = slices.reduce((sum, s) => sum + s.cpu, 0)
  return {
    connections,
    seconds: slices.length * sliceSeconds,
    rps: {
      median: median(rates),
      min: Math.min(...rates),
      max: Math.max(...rates),
      mean: requests / (slices.length * sliceSeconds),
    },
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    non2xx: slices.reduce((sum, s) => sum + s.non2xx, 0),
    requests,
    cpuMsPerRequest: requests > 0 ? (cpu * 1000) / requests : Number.NaN,
    cores: cpu / (slices.length * sliceSeconds),
  }
}

/**
 * Loads each URL for `seconds` in total, in 1-second slices taken in turn (a, b, a, b, …), so
 * that a burst of other work on this shared machine hits every server alike instead of one.
 * Loopback only: the bench never sends traffic elsewhere.
 */
export async function loadInTurn(
  targets: Target[],
  connections: number,
  seconds = loadSeconds,
): Promise<LoadResult[]> {
  const sliceSeconds = 1
  const slices: Slice[][] = targets.map(() => [])
  for (let i = 0; i < Math.max(1, Math.round(seconds / sliceSeconds)); i++) {
    for (const [index, target] of targets.entries())
      slices[index].push(await slice(target, connections, sliceSeconds))
  }
  return slices.map((list) => summarize(list, connections, sliceSeconds))
}

/** A short run whose figures are thrown away: fills caches and lets the JIT settle first. */
export async function warm(url: string, seconds = 1): Promise<void> {
  await slice({url, pids: []}, 16, seconds)
}
