import {liveWindowMs, type LiveReport} from './tally.ts'

/** Site processes remembered: far more than a deployment runs; the stalest is forgotten past it. */
const maxProcesses = 64

/**
 * The live figure of the split deployment (docs/reader-statistics.md): the content process keeps
 * each site process's latest report (it comes with every batch, liveReport in tally.ts) and sums
 * the visitors each saw in the last five minutes. A report names no one: per second, a count. A
 * site process that stops sending fades out on its own as its seconds age past the window.
 */
export class LiveReports {
  private readonly reports = new Map<string, LiveReport>()

  add(report: LiveReport): void {
    const known = this.reports.get(report.process)
    // A retried batch from a backlog is older than the report already kept.
    if (known && known.at > report.at) return
    this.reports.delete(report.process)
    this.reports.set(report.process, report)
    if (this.reports.size > maxProcesses) {
      const stalest = [...this.reports.values()].reduce((a, b) => (a.at <= b.at ? a : b))
      this.reports.delete(stalest.process)
    }
  }

  /** Visitors the site processes saw in the five minutes before `now` (one on two processes is two). */
  visitors(now: number): number {
    let count = 0
    for (const report of this.reports.values())
      for (const [second, visitors] of report.seen)
        if (now - second * 1000 < liveWindowMs) count += visitors
    return count
  }
}
