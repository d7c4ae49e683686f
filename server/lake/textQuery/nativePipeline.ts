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
 *   booleans, then everything else as equal), ties in input order;
 * - `<that>[a...b]` with literal bounds of 0 or more: over an `order()`, only its first b are
 *   selected (a page of 6 out of 10k posts is not a sort of 10k).
 *
 * A `<path>` is a chain of attributes from `@`. Values are compared as groq-js's `isEqual` does.
 */

export interface NativeContext {
  docs: Doc[]
  /** The matched set of a `text::query()` match node, or undefined if the node is not one. */
  matchSet(node: Record<string, unknown>): Set<string> | undefined
  /** A document's position in `docs` by its `_id` there. */
  positionOf(id: string): number | undefined
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

/** The matched sets of the `text::query()` matches among a conjunction's atoms. */
function requiredSets(node: unknown, context: NativeContext): Array<Set<string>> {
  if (!isRecord(node)) return []
  if (node.type === 'And')
    return [...requiredSets(node.left, context), ...requiredSets(node.right, context)]
  if (node.type === 'Group') return requiredSets(node.base, context)
  const set = context.matchSet(node)
  return set ? [set] : []
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
    // A required match to few documents: only those are tested, in dataset order.
    const sets = requiredSets(node.expr, context).sort((a, b) => a.size - b.size)
    const smallest = sets[0]
    const among =
      smallest && smallest.size < context.docs.length / 8
        ? [...smallest]
            .map((id) => context.positionOf(id))
            .filter((position) => position !== undefined)
            .sort((a, b) => a - b)
            .map((position) => context.docs[position] as Doc)
        : context.docs
    const docs = among.filter((doc) => tests.every((test) => test(doc)))
    context.filtered.set(key, docs)
    return docs
  }
  if (node.type === 'Slice') {
    const {left, right} = node
    if (typeof left !== 'number' || typeof right !== 'number' || left < 0 || right < 0)
      return undefined
    const end = right + (node.isInclusive === true ? 1 : 0)
    // `order(...)[a...b]`: only the first b of the order are needed (a page of a long list).
    const base =
      isRecord(node.base) && node.base.type === 'PipeFuncCall' && node.base.name === 'order'
        ? ordered(node.base, context, end)
        : nativeDocuments(node.base, context)
    return base?.slice(left, end)
  }
  if (node.type !== 'PipeFuncCall') return undefined
  if (node.name === 'score') {
    const result = scored(node, context)
    if (!result) return undefined
    const copies = result.docs.map((doc, i) => Object.assign({}, doc, {_score: result.scores[i]}))
    return copies.sort((a, b) => b._score - a._score)
  }
  if (node.name === 'order') return ordered(node, context, undefined)
  return undefined
}

/** `score()`'s sums for each document of its base, in the base's order (no copies yet). */
function scored(
  node: Record<string, unknown>,
  context: NativeContext,
): {docs: Doc[]; scores: number[]} | undefined {
  const scorers: Scorer[] = []
  for (const arg of Array.isArray(node.args) ? node.args : []) {
    const compiled = scorer(arg, context)
    if (!compiled) return undefined
    scorers.push(compiled)
  }
  if (scorers.length === 0) return undefined
  const docs = nativeDocuments(node.base, context)
  if (!docs) return undefined
  const scores = docs.map((doc) => {
    let score = typeof doc._score === 'number' ? doc._score : 0
    for (const add of scorers) score += add(doc)
    return score
  })
  return {docs, scores}
}

interface Row {
  doc: Doc
  /** `_score` when the base is a `score()` (its output is the document with it added). */
  score: number | undefined
  index: number
  values: unknown[]
}

/**
 * `order()` over its base, all of it or only its first `limit`. Over a `score()` the input is
 * what groq-js's score() returns: copies with `_score`, sorted by it (stable), so ties fall back
 * to score, then base position.
 */
function ordered(
  node: Record<string, unknown>,
  context: NativeContext,
  limit: number | undefined,
): Doc[] | undefined {
  const keys = ordering(node.args)
  if (!keys) return undefined
  const base = node.base
  const withScores =
    isRecord(base) && base.type === 'PipeFuncCall' && base.name === 'score'
      ? scored(base, context)
      : undefined
  const docs = withScores?.docs ?? nativeDocuments(base, context)
  if (!docs) return undefined
  const rows: Row[] = docs.map((doc, index) => {
    const score = withScores?.scores[index]
    return {
      doc,
      score,
      index,
      values: keys.map(({path}) =>
        score !== undefined && path[0] === '_score'
          ? path.length === 1
            ? score
            : null
          : valueAt(doc, path),
      ),
    }
  })
  const compare = (a: Row, b: Row): number => {
    for (const [i, key] of keys.entries()) {
      const c = totalCompare(a.values[i], b.values[i])
      if (c !== 0) return key.desc ? -c : c
    }
    if (a.score !== undefined && b.score !== undefined && a.score !== b.score)
      return b.score - a.score
    return a.index - b.index
  }
  const chosen =
    limit !== undefined && limit < rows.length ? firstOf(rows, limit, compare) : rows.sort(compare)
  return chosen.map((row) =>
    row.score === undefined ? row.doc : Object.assign({}, row.doc, {_score: row.score}),
  )
}

/** The first `count` rows in `compare`'s order (a total order), without sorting them all. */
function firstOf(rows: Row[], count: number, compare: (a: Row, b: Row) => number): Row[] {
  const out: Row[] = []
  if (count <= 0) return out
  for (const row of rows) {
    const last = out[count - 1]
    if (last !== undefined && compare(row, last) >= 0) continue
    let low = 0
    let high = out.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (compare(row, out[middle] as Row) < 0) high = middle
      else low = middle + 1
    }
    out.splice(low, 0, row)
    if (out.length > count) out.pop()
  }
  return out
}

/** groq-js's `pt::text` of one block: its spans' text joined, null when it is not a block. */
function blockText(block: Record<string, unknown>): string | null {
  if (typeof block._type !== 'string' || !Array.isArray(block.children)) return null
  let text = ''
  for (const child of block.children)
    if (isRecord(child) && child._type === 'span' && typeof child.text === 'string')
      text += child.text
  return text
}

function arrayText(value: unknown[], result: string[] = []): string[] {
  for (const block of value) {
    if (Array.isArray(block)) arrayText(block, result)
    else if (isRecord(block)) {
      const text = blockText(block)
      if (text !== null) result.push(text)
    }
  }
  return result
}

/**
 * The value of a simple `left` of a match (a path from `@`, or `pt::text(<path>)`) for `doc`,
 * as groq-js would compute it; undefined for any other expression (groq-js evaluates those).
 */
export function simpleValue(left: unknown, doc: Doc): {value: unknown} | undefined {
  const path = pathOf(left)
  if (path) return {value: valueAt(doc, path)}
  if (
    !isRecord(left) ||
    left.type !== 'FuncCall' ||
    left.namespace !== 'pt' ||
    left.name !== 'text' ||
    !Array.isArray(left.args) ||
    left.args.length !== 1
  )
    return undefined
  const inner = simpleValue(left.args[0], doc)
  if (!inner) return undefined
  const value = inner.value
  if (Array.isArray(value)) {
    const texts = arrayText(value)
    return {value: texts.length > 0 ? texts.join('\n\n') : null}
  }
  return {value: isRecord(value) ? blockText(value) : null}
}
