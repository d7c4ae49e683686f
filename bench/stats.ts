/** Summaries of repeated measurements: we report medians with their min–max spread. */
export interface Spread {
  median: number
  min: number
  max: number
  n: number
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function spread(values: number[]): Spread {
  const finite = values.filter((value) => Number.isFinite(value))
  if (finite.length === 0) return {median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0}
  return {
    median: median(finite),
    min: Math.min(...finite),
    max: Math.max(...finite),
    n: finite.length,
  }
}

/** Nearest-rank percentile (p in 0–100) of unsorted samples. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1]
}

/** Formats a number with at most `digits` decimals, dropping trailing zeros. */
export function fmt(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '–'
  return Number(value.toFixed(digits)).toLocaleString('en-US', {maximumFractionDigits: digits})
}

/** "median (min–max)", or just the median when every run gave the same figure. */
export function fmtSpread(s: Spread, digits = 1, unit = ''): string {
  if (s.n === 0) return '–'
  const m = `${fmt(s.median, digits)}${unit}`
  if (s.n === 1 || fmt(s.min, digits) === fmt(s.max, digits)) return m
  return `${m} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`
}

export function kb(bytes: number, digits = 1): string {
  return `${fmt(bytes / 1024, digits)} KB`
}

/** Milliseconds since `start` (a performance.now() value). */
export function elapsed(start: number): number {
  return performance.now() - start
}
