/**
 * Log lines for a process that faces the open internet: every value an attacker controls is
 * escaped (no forged lines through CR/LF or terminal escapes), and refusals that repeat are
 * summarised so a flood cannot grow the log without bound.
 */

/** Escapes control characters and caps the length of one logged value. */
export function safe(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : String(value)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) =>
    ch === '\n'
      ? '\\n'
      : ch === '\r'
        ? '\\r'
        : ch === '\t'
          ? '\\t'
          : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return escaped.length > max ? `${escaped.slice(0, max)}…(${escaped.length} chars)` : escaped
}

export interface RefusalLogOptions {
  windowMs?: number
  /** Distinct (client, kind) pairs remembered per window; beyond it refusals are only counted. */
  maxKeys?: number
  now?: () => number
  write?: (line: string) => void
  /** The summary lines' prefix: what was counted. */
  label?: string
  /** Characters of a first line kept (a stack trace needs more than a refusal). */
  maxLineLength?: number
}

/**
 * Logs the first refusal of a kind per client per window in full, then counts: when the window
 * closes, one line says how many more there were. Memory is bounded by `maxKeys`.
 */
export class RefusalLog {
  private readonly windowMs: number
  private readonly maxKeys: number
  private readonly now: () => number
  private readonly write: (line: string) => void
  private readonly label: string
  private readonly maxLineLength: number
  private windowStart = 0
  private readonly counts = new Map<string, number>()
  private overflow = 0

  constructor(options: RefusalLogOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000
    this.maxKeys = options.maxKeys ?? 1_000
    this.now = options.now ?? Date.now
    this.write = options.write ?? ((line) => console.warn(line))
    this.label = options.label ?? 'refused'
    this.maxLineLength = options.maxLineLength ?? 500
  }

  /** `client` and `kind` key the summary; `line` is written only for the first of the window. */
  refuse(client: string, kind: string, line: string): void {
    this.roll()
    const key = `${client} ${kind}`
    const seen = this.counts.get(key)
    if (seen !== undefined) {
      this.counts.set(key, seen + 1)
      return
    }
    if (this.counts.size >= this.maxKeys) {
      this.overflow++
      return
    }
    this.counts.set(key, 0)
    this.write(safe(line, this.maxLineLength))
  }

  /** Writes the summaries of a finished window (also called by `refuse`). */
  roll(): void {
    const now = this.now()
    if (now - this.windowStart < this.windowMs) return
    for (const [key, more] of this.counts) {
      if (more > 0) this.write(`[${this.label}] ${safe(key)}: ${more} more in the last minute`)
    }
    if (this.overflow > 0)
      this.write(`[${this.label}] ${this.overflow} more from other clients in the last minute`)
    this.counts.clear()
    this.overflow = 0
    this.windowStart = now
  }
}

/** The process's one refusal log. */
export const refusals = new RefusalLog()

/**
 * Answers that failed (500s), summarised the same way under the key `*` and the failure's kind:
 * the first of a kind each minute is written with its stack, the rest counted, so a request
 * that keeps failing cannot flood the log (263 stack traces, security review 2, finding 5).
 */
export const failures = new RefusalLog({
  write: (line) => console.error(line),
  label: 'failed',
  maxLineLength: 4000,
})

/** A failure's kind for `failures`: its class and the first line of its message. */
export function failureKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error
  return `${error.name}: ${safe(error.message.split('\n')[0], 120)}`
}

/** An error with its stack, as one escaped log value (the stack stays readable: `\n` escapes). */
export function withStack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? String(error)) : String(error)
}
