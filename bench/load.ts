import autocannon from 'autocannon'
import {percentile} from './stats.ts'

export interface LoadResult {
  connections: number
  seconds: number
  /** Requests per second: the median of the per-second counts, with their min and max. */
  rps: {median: number; min: number; max: number; mean: number}
  /** Latency percentiles in ms over every response (autocannon's own histogram rounds to 1 ms). */
  p50: number
  p99: number
  /** Connection errors and timeouts, plus responses that were not 2xx. */
  errors: number
  non2xx: number
  requests: number
}

/** Load-generator settings shared by every cell so ours and nginx's are measured alike. */
export const loadSeconds = Number(process.env.BENCH_SECONDS || 5)
export const connectionCounts = [1, 16, 64]

/**
 * Drives `url` with autocannon from this process (keep-alive HTTP/1.1, one request in flight per
 * connection) for a bounded time. Loopback only: the bench never sends traffic elsewhere.
 */
export async function load(url: string, connections: number, seconds = loadSeconds): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error(`refusing to load a non-loopback URL: ${url}`)
  const times: number[] = []
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({url, connections, duration: seconds, pipelining: 1, timeout: 10}, (error, done) =>
      error ? reject(error) : resolve(done),
    )
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
  })
  return {
    connections,
    seconds,
    rps: {median: result.requests.p50, min: result.requests.min, max: result.requests.max, mean: result.requests.average},
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  }
}

/** A short run whose figures are thrown away: fills caches and lets the JIT settle first. */
export async function warm(url: string, seconds = 1): Promise<void> {
  await load(url, 16, seconds)
}
