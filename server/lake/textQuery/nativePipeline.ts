import {isRecord} from '../../util/isRecord.ts'
import type {Doc} from '../types.ts'

/**
 * A search's hot pipeline evaluated in plain JavaScript, with groq-js's exact semantics, so that
 * a word found in every post does not cost groq-js's per-document async evaluation (about 200 ms
 * to filter, score and order 10k posts). Only these shapes are taken, anything else is left to
 * groq-js (undefined):
 *
 * - `*[<conjunction>]`: `&&` of `<path> == <literal>`, `<path> in [<literals>]`,
 *   `defined(<path>)` and `text::query()` matches (a document passes only if each is true,
 *   which is what a filter keeps whatever `&&` does with null);
 * - `<that> | score(<scorers>)`: scorers built of those atoms, `text::query()` matches, `&&`,
 *   `||` and `boost(<scorer>, <number>)`, summed as groq-js's `evaluateScore` does, then the
 *   copies `{...doc, _score}` sorted by `_score` descending (stable);
 * - `<that> | order(<path> [asc|desc], …)`: groq-js's total order (numbers, then strings, then
 *   booleans, then everything else as equal), ties in input order.
 *
 * A `<path>` is a chain of attributes from `@`. Values are compared as groq-js's `isEqual` does.
 */

export interface NativeContext {
  docs: Doc[]
  /** The matched set of a `text::query()` match node, or undefined if the node is not one. */
  matchSet(node: Record<string, unknown>): Set<string> | undefined
  /** Filters already computed in this query, by their condition (a page and its count share one). */
  filtered: Map<string, Doc[]>
}

type Value = unknown
type Path = string[]

function pathOf(node: unknown): Path | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'This') return []
  if (node.type !== 'AccessAttribute' || typeof node.name !== 'string') return undefined
  const base = node.base === undefined ? [] : pathOf(node.base)
  return base && [...base, node.name]
}

function valueAt(doc: unknown, path: Path): Value {
  let value: unknown = doc
  for (const name of path) {
    if (!isRecord(value) || !Object.prototype.hasOwnProperty.call(value, name)) return null
    value = value[name]
  }
  return value ?? null
}

type Kind = 'null' | 'array' | 'string' | 'number' | 'boolean' | 'object' | 'other'

function kindOf(value: unknown): Kind {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'array'
  const type = typeof value
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object'
    ? type
    : 'other'
}

/** groq-js's `isEqual`: same primitive kind (string, boolean, null, number) and same value. */
function isEqual(a: unknown, b: unknown): boolean {
  const kind = kindOf(a)
  if (kind !== kindOf(b)) return false
  return (
    kind === 'null' || ((kind === 'string' || kind === 'boolean' || kind === 'number') && a === b)
  )
}

/** A literal groq-js would read as one of its primitive values (not a datetime, object or array). */
function literal(node: unknown): {value: Value} | undefined {
  if (!isRecord(node) || node.type !== 'Value') return undefined
  const kind = kindOf(node.value)
  return kind === 'null' || kind === 'string' || kind === 'boolean' || kind === 'number'
    ? {value: node.value ?? null}
    : undefined
}

/** `[<literal>, …]` as written (an Array node) or as a param (a Value holding an array). */
function literalArray(node: unknown): unknown[] | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'Value') return Array.isArray(node.value) ? node.value : undefined
  if (node.type !== 'Array' || !Array.isArray(node.elements)) return undefined
  const values: unknown[] = []
  for (const element of node.elements) {
    if (!isRecord(element) || element.type !== 'ArrayElement' || element.isSplat !== false)
      return undefined
    const value = literal(element.value)
    if (!value) return undefined
    values.push(value.value)
  }
  return values
}

type Test = (doc: Doc) => boolean

/** An atom that is true or not (false and null both fail a filter and score 0). */
function atom(node: Record<string, unknown>, context: NativeContext): Test | undefined {
  const set = context.matchSet(node)
  if (set) return (doc) => set.has(doc._id)
  if (node.type === 'Group') return isRecord(node.base) ? atom(node.base, context) : undefined
  if (node.type === 'OpCall' && node.op === '==') {
    const [path, value] =
      pathOf(node.left) !== undefined
        ? [pathOf(node.left), literal(node.right)]
        : [pathOf(node.right), literal(node.left)]
    if (!path || !value) return undefined
    return (doc) => isEqual(valueAt(doc, path), value.value)
  }
  if (node.type === 'OpCall' && node.op === 'in') {
    const path = pathOf(node.left)
    const options = literalArray(node.right)
    if (!path || !options) return undefined
    return (doc) => {
      const value = valueAt(doc, path)
      return options.some((option) => isEqual(value, option))
    }
  }
  if (
    node.type === 'FuncCall' &&
    node.namespace === 'global' &&
    node.name === 'defined' &&
    Array.isArray(node.args) &&
    node.args.length === 1
  ) {
    const path = pathOf(node.args[0])
    return path && ((doc) => valueAt(doc, path) !== null)
  }
  return undefined
}

function conjunction(node: unknown, context: NativeContext): Test[] | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'And') {
    const left = conjunction(node.left, context)
    const right = left && conjunction(node.right, context)
    return left && right && [...left, ...right]
  }
  if (node.type === 'Group' && isRecord(node.base) && node.base.type === 'And')
    return conjunction(node.base, context)
  const test = atom(node, context)
  return test && [test]
}

type Scorer = (doc: Doc) => number

/** groq-js's `evaluateScore` for the supported nodes. */
function scorer(node: unknown, context: NativeContext): Scorer | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'FuncCall' && node.name === 'boost' && Array.isArray(node.args)) {
    const inner = scorer(node.args[0], context)
    const weight = literal(node.args[1])?.value
    if (!inner || typeof weight !== 'number' || node.args.length !== 2) return undefined
    return (doc) => {
      const score = inner(doc)
      return score > 0 ? score + weight : 0
    }
  }
  if (node.type === 'Or' || node.type === 'And') {
    const left = scorer(node.left, context)
    const right = scorer(node.right, context)
    if (!left || !right) return undefined
    if (node.type === 'Or') return (doc) => left(doc) + right(doc)
    return (doc) => {
      const l = left(doc)
      const r = right(doc)
      return l === 0 || r === 0 ? 0 : l + r
    }
  }
  const test = atom(node, context)
  return test && ((doc) => (test(doc) ? 1 : 0))
}

const typeOrder: Partial<Record<Kind, number>> = {number: 2, string: 3, boolean: 4}

/** groq-js's `totalCompare` for values read from documents (no datetimes among them). */
function totalCompare(a: unknown, b: unknown): number {
  const kindA = kindOf(a)
  const kindB = kindOf(b)
  const orderA = typeOrder[kindA] ?? 100
  const orderB = typeOrder[kindB] ?? 100
  if (orderA !== orderB) return orderA - orderB
  if (kindA !== kindB) return 0
  if (kindA === 'number' || kindA === 'boolean') return Number(a) - Number(b)
  if (kindA === 'string') {
    const x = String(a)
    const y = String(b)
    return x < y ? -1 : x > y ? 1 : 0
  }
  return 0
}

function ordering(args: unknown): Array<{path: Path; desc: boolean}> | undefined {
  if (!Array.isArray(args) || args.length === 0) return undefined
  const keys: Array<{path: Path; desc: boolean}> = []
  for (const arg of args) {
    if (!isRecord(arg)) return undefined
    const desc = arg.type === 'Desc'
    const path = pathOf(arg.type === 'Desc' || arg.type === 'Asc' ? arg.base : arg)
    if (!path) return undefined
    keys.push({path, desc})
  }
  return keys
}

/** The documents `node` evaluates to, computed here; undefined when its shape is not taken. */
export function nativeDocuments(node: unknown, context: NativeContext): Doc[] | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'Filter' && isRecord(node.base) && node.base.type === 'Everything') {
    const key = JSON.stringify(node.expr)
    const known = context.filtered.get(key)
    if (known) return known
    const tests = conjunction(node.expr, context)
    if (!tests) return undefined
    const docs = context.docs.filter((doc) => tests.every((test) => test(doc)))
    context.filtered.set(key, docs)
    return docs
  }
  if (node.type !== 'PipeFuncCall') return undefined
  if (node.name === 'score') {
    const scorers = Array.isArray(node.args)
      ? node.args.map((arg: unknown) => scorer(arg, context))
      : []
    if (scorers.length === 0 || scorers.some((s) => s === undefined)) return undefined
    const base = nativeDocuments(node.base, context)
    if (!base) return undefined
    const scored = base.map((doc) => {
      let score = typeof doc._score === 'number' ? doc._score : 0
      for (const score_ of scorers) score += score_?.(doc) ?? 0
      return Object.assign({}, doc, {_score: score})
    })
    return scored.sort((a, b) => b._score - a._score)
  }
  if (node.name === 'order') {
    const keys = ordering(node.args)
    const base = keys && nativeDocuments(node.base, context)
    if (!keys || !base) return undefined
    const rows = base.map((doc, index) => ({
      doc,
      index,
      values: keys.map((k) => valueAt(doc, k.path)),
    }))
    rows.sort((a, b) => {
      for (const [i, key] of keys.entries()) {
        const c = totalCompare(a.values[i], b.values[i])
        if (c !== 0) return key.desc ? -c : c
      }
      return a.index - b.index
    })
    return rows.map((row) => row.doc)
  }
  return undefined
}
