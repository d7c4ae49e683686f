export interface BackoffOptions {
  /** Delay before the first retry; doubled for each further failure. */
  baseMs?: number
  /** Longest delay between two attempts. */
  capMs?: number
}

export const defaultBackoff = {baseMs: 30_000, capMs: 60 * 60_000} as const

/** Delay after the `attempts`-th failed attempt: base, 2·base, 4·base, … up to the cap. */
export function backoffDelay(attempts: number, {baseMs, capMs}: Required<BackoffOptions>): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1))
}
