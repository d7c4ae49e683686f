import type {Doc} from '../types.ts'

/**
 * A small mendoza encoder (the format of `effects` on listener events and history
 * transactions; decoder: the `mendoza` package, opcodes in its src/internal-patcher.ts).
 * The Studio applies `apply` to the previous document minus `_rev` to get the next one, and
 * `revert` the other way, to rebuild every revision in its timeline; a minimal patch (not a
 * whole-value `[0, doc]`) lets it attribute each change to the transaction that made it.
 */
export type MendozaPatch = unknown[]

export interface Effects {
  apply: MendozaPatch
  revert: MendozaPatch
}

const op = {
  value: 0,
  copy: 1,
  blank: 2,
  returnIntoArrayPop: 16,
  pushField: 6,
  pushElement: 7,
  returnIntoObjectSameKeyPop: 15,
  objectSetFieldValue: 17,
  objectDeleteField: 19,
  arrayAppendValue: 20,
  arrayAppendSlice: 21,
  stringAppendString: 22,
  stringAppendSlice: 23,
} as const

type Json = null | boolean | number | string | Json[] | {[key: string]: Json}

function isObject(value: unknown): value is {[key: string]: Json} {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]))
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]))
    )
  }
  return false
}

/** Emits ops that push `to` onto the output stack, given `from` on top of the input stack. */
function encode(from: Json, to: Json, out: unknown[]): void {
  if (deepEqual(from, to)) out.push(op.copy)
  else if (isObject(from) && isObject(to)) encodeObject(from, to, out)
  // An empty result must be a value: a blank output that gets no appends decodes to null.
  else if (Array.isArray(from) && Array.isArray(to) && to.length > 0) encodeArray(from, to, out)
  else if (typeof from === 'string' && typeof to === 'string' && from.length > 32 && to !== '')
    encodeString(from, to, out)
  else out.push(op.value, to)
}

const diffable = (a: Json, b: Json) =>
  (isObject(a) && isObject(b)) ||
  (Array.isArray(a) && Array.isArray(b)) ||
  (typeof a === 'string' && typeof b === 'string')

function encodeObject(
  from: {[key: string]: Json},
  to: {[key: string]: Json},
  out: unknown[],
): void {
  out.push(op.copy)
  // Field indexes refer to the input object's keys in sorted order, as the decoder reads them.
  const keys = Object.keys(from).sort()
  keys.forEach((key, index) => {
    if (!(key in to)) out.push(op.objectDeleteField, index)
    else if (!deepEqual(from[key], to[key])) {
      if (diffable(from[key], to[key])) {
        out.push(op.pushField, index)
        encode(from[key], to[key], out)
        out.push(op.returnIntoObjectSameKeyPop)
      } else out.push(op.objectSetFieldValue, to[key], key)
    }
  })
  for (const key of Object.keys(to))
    if (!(key in from)) out.push(op.objectSetFieldValue, to[key], key)
}

const keyOf = (value: Json) =>
  isObject(value) && typeof value._key === 'string' ? value._key : undefined

function encodeArray(from: Json[], to: Json[], out: unknown[]): void {
  out.push(op.blank)
  const byKey = new Map<string, number>()
  from.forEach((item, index) => {
    const key = keyOf(item)
    if (key !== undefined && !byKey.has(key)) byKey.set(key, index)
  })
  let slice: [number, number] | undefined
  const flush = () => {
    if (slice) out.push(op.arrayAppendSlice, slice[0], slice[1])
    slice = undefined
  }
  to.forEach((item, index) => {
    const key = keyOf(item)
    // Keyed items (portable text blocks) are matched by _key, others by position.
    const source =
      key !== undefined
        ? byKey.get(key)
        : index < from.length && keyOf(from[index]) === undefined
          ? index
          : undefined
    if (source !== undefined && deepEqual(from[source], item)) {
      if (slice && slice[1] === source) slice[1]++
      else {
        flush()
        slice = [source, source + 1]
      }
      return
    }
    flush()
    if (source !== undefined && diffable(from[source], item)) {
      out.push(op.pushElement, source)
      encode(from[source], item, out)
      out.push(op.returnIntoArrayPop)
    } else out.push(op.arrayAppendValue, item)
  })
  flush()
}

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8')

function encodeString(from: string, to: string, out: unknown[]): void {
  // Common prefix and suffix by code point, so that no surrogate pair is split.
  const a = Array.from(from)
  const b = Array.from(to)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (
    end < a.length - start &&
    end < b.length - start &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  )
    end++
  const prefix = a.slice(0, start).join('')
  const middle = b.slice(start, b.length - end).join('')
  const suffixStart = utf8Length(a.slice(0, a.length - end).join(''))
  out.push(op.blank)
  // Slice offsets are UTF-8 byte positions in the input string (mendoza's string model).
  if (prefix) out.push(op.stringAppendSlice, 0, utf8Length(prefix))
  if (middle) out.push(op.stringAppendString, middle)
  if (end > 0) out.push(op.stringAppendSlice, suffixStart, utf8Length(from))
}

/** The patch that turns `from` into `to` (null = no document). */
export function mendozaPatch(from: unknown, to: unknown): MendozaPatch {
  if (!isObject(from) || !isObject(to)) return [op.value, to ?? null]
  const out: unknown[] = []
  encode(from, to, out)
  return out
}

function withoutRev(doc: Doc | null | undefined): Omit<Doc, '_rev'> | null {
  if (!doc) return null
  const {_rev, ...rest} = doc
  return rest
}

/** Mendoza `apply`/`revert` between two revisions of a document, ignoring `_rev` as Sanity does. */
export function documentEffects(
  before: Doc | null | undefined,
  after: Doc | null | undefined,
): Effects {
  const from = withoutRev(before)
  const to = withoutRev(after)
  return {apply: mendozaPatch(from, to), revert: mendozaPatch(to, from)}
}
