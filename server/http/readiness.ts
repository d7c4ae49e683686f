/**
 * What /readyz (health.ts) asks of the local lake: is the database open, and does a query
 * worker answer? A narrow view of server/lake/lake.ts, so tests can hand in a lake whose
 * workers cannot start.
 */
export interface ProbedLake {
  readonly open: boolean
  queryJson(
    query: string,
    params: Record<string, unknown>,
    options: {authenticated: boolean; lane: 'trusted'; client: string},
  ): Promise<string>
  poolStatus(): {ready: number; busy: number}
}

/**
 * How long the probe query may take before the pool's state decides. A trivial query answers in
 * about a millisecond on an idle worker; a freshly started worker first loads its replica
 * (about 1 s at 10,000 posts, docs/architecture.md), so 2 s passes a cold start on the bench
 * machine while a load balancer (which typically waits 5 s) still gets its answer in time.
 */
export const probeTimeoutMs = 2_000

/**
 * A verdict is reused this long. /readyz is exempt from rate limits (load balancers probe it
 * often, by IP), so a flood of probes must not become a flood of queries on the trusted lane:
 * at most one probe query runs at a time, and at most one starts per second.
 */
export const verdictTtlMs = 1_000

type Outcome = 'answered' | 'failed' | 'pending'

/**
 * Readiness of the local lake: ready when it is open and a query worker answers a trivial query
 * on the trusted lane. When the probe is still waiting after `probeTimeoutMs`, the workers are
 * either all busy (long owner queries, a burst of renders) or down (they cannot start): the
 * pool's state tells which. Busy workers that are alive are ready, so /readyz does not flap to
 * 503 under load and a proxy does not take a working server out of rotation; no worker ready
 * is 503. A probe that is still waiting is not sent again: the next check waits for the same one.
 */
export class LakeReadiness {
  private readonly lake: ProbedLake
  private readonly timeoutMs: number
  private readonly now: () => number
  private probe: Promise<Outcome> | undefined
  private verdict: {ready: boolean; at: number} | undefined

  constructor(lake: ProbedLake, options: {timeoutMs?: number; now?: () => number} = {}) {
    this.lake = lake
    this.timeoutMs = options.timeoutMs ?? probeTimeoutMs
    this.now = options.now ?? Date.now
  }

  async ready(): Promise<boolean> {
    if (!this.lake.open) return false
    const last = this.verdict
    if (last && this.now() - last.at < verdictTtlMs) return last.ready
    const ready = await this.check()
    this.verdict = {ready, at: this.now()}
    return ready
  }

  private async check(): Promise<boolean> {
    const probe = (this.probe ??= this.lake
      .queryJson('1', {}, {authenticated: true, lane: 'trusted', client: 'readyz'})
      .then(
        (): Outcome => 'answered',
        (): Outcome => 'failed',
      )
      .finally(() => {
        this.probe = undefined
      }))
    let timer: NodeJS.Timeout | undefined
    const waited = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve('pending'), this.timeoutMs)
    })
    const outcome = await Promise.race([probe, waited])
    clearTimeout(timer)
    if (outcome === 'answered') return this.lake.open
    if (outcome === 'failed') return false
    const {ready, busy} = this.lake.poolStatus()
    return this.lake.open && ready > 0 && busy > 0
  }
}
