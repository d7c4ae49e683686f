/**
 * What every benchmark module hands back to bench/run.ts. A module (bench/web.ts, bench/lake.ts, …)
 * exports `run(): Promise<Section>`; run.ts prints it, and report.ts writes it to
 * bench/results/<date>.json and bench/results/latest.md.
 */
export type Cell = string | number | null

export interface Table {
  title: string
  columns: string[]
  rows: Cell[][]
}

export interface Section {
  /** The CLI name (`node bench/run.ts <name>`). */
  name: string
  title: string
  tables: Table[]
  /** Targets met or missed, skipped parts and other findings, one sentence each. */
  notes: string[]
  /** The raw figures, kept in the JSON result for later comparison. */
  data?: unknown
}

/** A section as stored: when it ran and how long it took. */
export interface SectionResult extends Section {
  startedAt: string
  seconds: number
}

export interface BenchModule {
  run(): Promise<Section>
}
