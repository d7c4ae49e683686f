/** A request body being received, as the pace check sees it (slowBodies.ts, http2Abuse.ts). */
export abstract class PacedBody {
  readonly startedAt = Date.now()
  readonly bytesAtStart: number

  constructor(bytesAtStart: number) {
    this.bytesAtStart = bytesAtStart
  }

  /** Bytes read on its connection so far. */
  abstract bytesRead(): number
  /** Complete, or its stream gone: no longer watched. */
  abstract finished(): boolean
  /** Data waiting to be read is the server's delay, not the client's. */
  abstract waiting(): boolean
  /** Too slow (under `minBytesPerSecond`): answer and close. */
  abstract refuse(minBytesPerSecond: number): void
}

export interface Pace {
  /** A body may take this long before its pace is checked (a slow start, a phone waking up). */
  graceMs: number
  /** ... then it must have kept up this average rate since the grace ended. */
  minBytesPerSecond: number
  /** How often bodies in flight are checked. */
  checkIntervalMs: number
}

/**
 * The bodies in flight, checked on a timer that runs only while there are some: past the grace,
 * one that has not kept up the minimum average rate is refused. Node's own timeouts bound only
 * the total time, so without this one byte every few seconds held a connection for minutes.
 */
export class PaceSweep {
  private readonly bodies = new Set<PacedBody>()
  private readonly pace: Pace
  private sweep: NodeJS.Timeout | undefined

  constructor(pace: Pace) {
    this.pace = pace
  }

  add(body: PacedBody): void {
    this.bodies.add(body)
    this.sweep ??= setInterval(() => this.check(), this.pace.checkIntervalMs)
    this.sweep.unref()
  }

  delete(body: PacedBody): void {
    this.bodies.delete(body)
  }

  private check(): void {
    const now = Date.now()
    const {graceMs, minBytesPerSecond} = this.pace
    for (const body of this.bodies) {
      if (body.finished()) {
        this.bodies.delete(body)
        continue
      }
      const late = now - body.startedAt - graceMs
      if (late <= 0 || body.waiting()) continue
      if (body.bytesRead() - body.bytesAtStart >= (late / 1000) * minBytesPerSecond) continue
      this.bodies.delete(body)
      body.refuse(minBytesPerSecond)
    }
    if (this.bodies.size === 0) {
      clearInterval(this.sweep)
      this.sweep = undefined
    }
  }
}
