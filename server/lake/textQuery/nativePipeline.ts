import {isRecord} from '../../util/isRecord.ts'
import type {Doc} from '../types.ts'
import type {MatchedDocs} from './matchedDocs.ts'
import type {ScratchArrays} from './scratchArrays.ts'

/**
 * A search's hot pipeline evaluated in plain JavaScript, with groq-js's exact semantics, so that
 * a word found in every post does not cost groq-js's per-document async evaluation (about 200 ms
 * to filter, score and order 10k posts). Only these shapes are taken, anything else is left to
 * groq-js (undefined):
 *
 * - `*[<conjunction>]`: `&&` of `<path> == <literal>`, `<path> in [<literals>]`,
 *   `defined(<path>)` and `text::query()` matches (a document passes only if each is true,
 *   which is what a filter keeps whatever `&&` does with null);
 * - `<that> | score(<scorers>)`: scorers built of those atoms, `text::query()` matches (scored
 *   by how often their terms occur, textScores.ts), `&&`, `||` and `boost(<scorer>, <number>)`,
 *   summed as groq-js's `evaluateScore` does, then the
 *   copies `{...doc, _score}` sorted by `_score` descending (stable);
 * - `<that> | order(<path> [asc|desc], …)`: groq-js's total order (numbers, then strings, then
 *   booleans, then everything else as equal), ties in input order;
 * - `count(<that>)`;
 * - `<that>[a...b]` with literal bounds of 0 or more: over an `order()`, only its first b are
 *   selected (a page of 6 out of 10k posts is not a sort of 10k).
 *
 * Over a filter of `*`, rows are positions in the view: each atom is a byte per position (a
 * match's set, or, for an atom that reads only the document, bits kept per view), scores are a
 * typed array, and an `order()` whose keys read only the documents compares each view's rank
 * of the documents by those keys (computed once per view) instead of their values.
 *
 * A `<path>` is a chain of attributes from `@`. Values are compared as groq-js's `isEqual` does.
 */

export interface NativeContext {
  docs: Doc[]
  /** The matched set of a `text::query()` match node, or undefined if the node is not one. */
  matchSet(node: Record<string, unknown>): MatchedDocs | undefined
  /**
   * Filters over `*` already computed in this query, by their condition (a page and its count
   * share one): the ascending positions in `docs` of the documents that pass.
   */
  filtered: Map<string, Int32Array>
  /** Where this query's own arrays come from (none of them outlives it). */
  scratch: ScratchArrays
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

/** A test of `doc` (its position in the view unknown): false and null both fail and score 0. */
type Test = (doc: Doc) => boolean

/**
 * An atom of a filter or a score: `test` for any document, `bits` for the view's documents by
 * position (what a filter over `*` and its scores read).
 */
interface Atom {
  test: Test
  bits(): Uint8Array
}

/**
 * Per view, the bits of atoms that read only the document (`==`, `in`, `defined()`), by the
 * atom's tree: the site's `_type == "post"` is then one byte per post read, not a path walked.
 * A view is the array a query worker keeps until its next change, never changed in place
 * (the postings rely on the same, postings.ts). Bounded per view.
 */
const atomBitsByView = new WeakMap<Doc[], Map<string, Uint8Array>>()
const maxAtomsPerView = 32

function documentAtom(node: Record<string, unknown>, test: Test, context: NativeContext): Atom {
  return {
    test,
    bits() {
      const {docs} = context
      let byAtom = atomBitsByView.get(docs)
      if (!byAtom) atomBitsByView.set(docs, (byAtom = new Map()))
      const key = JSON.stringify(node)
      const known = byAtom.get(key)
      if (known) return known
      const bits = new Uint8Array(docs.length)
      for (let i = 0; i < docs.length; i++) if (test(docs[i] as Doc)) bits[i] = 1
      if (byAtom.size < maxAtomsPerView) byAtom.set(key, bits)
      return bits
    },
  }
}

/** An atom that is true or not (false and null both fail a filter and score 0). */
function atom(node: Record<string, unknown>, context: NativeContext): Atom | undefined {
  const set = context.matchSet(node)
  if (set) return {test: (doc) => set.has(doc._id), bits: () => set.positionBits()}
  if (node.type === 'Group') return isRecord(node.base) ? atom(node.base, context) : undefined
  if (node.type === 'OpCall' && node.op === '==') {
    const [path, value] =
      pathOf(node.left) !== undefined
        ? [pathOf(node.left), literal(node.right)]
        : [pathOf(node.right), literal(node.left)]
    if (!path || !value) return undefined
    return documentAtom(node, (doc) => isEqual(valueAt(doc, path), value.value), context)
  }
  if (node.type === 'OpCall' && node.op === 'in') {
    const path = pathOf(node.left)
    const options = literalArray(node.right)
    if (!path || !options) return undefined
    return documentAtom(
      node,
      (doc) => {
        const value = valueAt(doc, path)
        return options.some((option) => isEqual(value, option))
      },
      context,
    )
  }
  if (
    node.type === 'FuncCall' &&
    node.namespace === 'global' &&
    node.name === 'defined' &&
    Array.isArray(node.args) &&
    node.args.length === 1
  ) {
    const path = pathOf(node.args[0])
    return path && documentAtom(node, (doc) => valueAt(doc, path) !== null, context)
  }
  return undefined
}

function conjunction(node: unknown, context: NativeContext): Atom[] | undefined {
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
function requiredSets(node: unknown, context: NativeContext): MatchedDocs[] {
  if (!isRecord(node)) return []
  if (node.type === 'And')
    return [...requiredSets(node.left, context), ...requiredSets(node.right, context)]
  if (node.type === 'Group') return requiredSets(node.base, context)
  const set = context.matchSet(node)
  return set ? [set] : []
}

/** Adds one `score()` argument's score of each row to `out`, the row's index in it. */
type ColumnScorer = (rows: Rows, out: Float64Array) => void

/**
 * groq-js's `evaluateScore` for the supported nodes, a column at a time over typed arrays: rows
 * that are the view's positions read each atom's byte per position (at 10k posts, a closure call
 * per row and argument had cost ~0.2 ms); other rows test their documents.
 */
function columnScorer(node: unknown, context: NativeContext): ColumnScorer | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'FuncCall' && node.name === 'boost' && Array.isArray(node.args)) {
    const weight = literal(node.args[1])?.value
    if (typeof weight !== 'number' || node.args.length !== 2) return undefined
    // The common case (the site's): a boosted text match scores its relevance + weight or nothing.
    const set = isRecord(node.args[0]) ? context.matchSet(node.args[0]) : undefined
    if (set) return relevanceColumn(set, weight)
    // Another atom scores 1 + weight or nothing, with no column of its own to allocate per search.
    const boosted = isRecord(node.args[0]) ? atom(node.args[0], context) : undefined
    if (boosted) return atomColumn(boosted, 1 + weight)
    const inner = columnScorer(node.args[0], context)
    if (!inner) return undefined
    return (rows, out) => {
      const own = context.scratch.float64(rows.length)
      inner(rows, own)
      for (let i = 0; i < own.length; i++) {
        const score = own[i] as number
        if (score > 0) out[i] = (out[i] as number) + (score + weight)
      }
    }
  }
  if (node.type === 'Or' || node.type === 'And') {
    const left = columnScorer(node.left, context)
    const right = columnScorer(node.right, context)
    if (!left || !right) return undefined
    const both = node.type === 'And'
    // Each side summed apart, then added, as groq-js adds them: the same floating-point sums.
    return (rows, out) => {
      const l = context.scratch.float64(rows.length)
      const r = context.scratch.float64(rows.length)
      left(rows, l)
      right(rows, r)
      for (let i = 0; i < l.length; i++) {
        const a = l[i] as number
        const b = r[i] as number
        if (!both || (a !== 0 && b !== 0)) out[i] = (out[i] as number) + (a + b)
      }
    }
  }
  // A text match scores how well it matched (groq-js scores a `match` so); other atoms 1 or 0.
  const set = context.matchSet(node)
  if (set) return relevanceColumn(set, 0)
  const found = atom(node, context)
  return found && atomColumn(found, 1)
}

/**
 * Adds each row's score of a text match (textScores.ts), plus `weight` (a `boost()`'s, else 0)
 * where it is above 0: groq-js's `boost()` adds its weight to a score above 0 only.
 */
function relevanceColumn(set: MatchedDocs, weight: number): ColumnScorer {
  return (rows, out) => {
    if (rows.positions) {
      set.scoreColumn(rows.positions, out, weight)
      return
    }
    for (let i = 0; i < rows.length; i++) {
      const score = set.scoreOf(rows.docs[i] as Doc, undefined)
      if (score > 0) out[i] = (out[i] as number) + (score + weight)
    }
  }
}

/** Adds `score` to each row whose document passes `found` (an atom scores 1 or 0). */
function atomColumn(found: Atom, score: number): ColumnScorer {
  return (rows, out) => {
    const {positions} = rows
    if (positions) {
      const bits = found.bits()
      for (let i = 0; i < positions.length; i++)
        if (bits[positions[i] as number] === 1) out[i] = (out[i] as number) + score
    } else
      for (let i = 0; i < rows.length; i++)
        if (found.test(rows.docs[i] as Doc)) out[i] = (out[i] as number) + score
  }
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

interface Key {
  path: Path
  desc: boolean
}

function ordering(args: unknown): Key[] | undefined {
  if (!Array.isArray(args) || args.length === 0) return undefined
  const keys: Key[] = []
  for (const arg of args) {
    if (!isRecord(arg)) return undefined
    const desc = arg.type === 'Desc'
    const path = pathOf(arg.type === 'Desc' || arg.type === 'Asc' ? arg.base : arg)
    if (!path) return undefined
    keys.push({path, desc})
  }
  return keys
}

/**
 * What `node` evaluates to when computed here: the documents of a pipeline above, or `count()` of
 * one (its length, as groq-js counts an array; handing it 10k documents to count cost ~2 ms).
 */
export function nativeValue(node: unknown, context: NativeContext): {value: unknown} | undefined {
  if (
    isRecord(node) &&
    node.type === 'FuncCall' &&
    node.namespace === 'global' &&
    node.name === 'count' &&
    Array.isArray(node.args) &&
    node.args.length === 1
  ) {
    const rows = rowsOf(node.args[0], context)
    return rows && {value: rows.length}
  }
  const docs = nativeDocuments(node, context)
  return docs && {value: docs}
}

/**
 * The documents a node evaluates to: `positions` in the view when they are the view's (a
 * filter over `*`), else the documents themselves.
 */
type Rows =
  | {positions: Int32Array; docs?: undefined; length: number}
  | {positions?: undefined; docs: Doc[]; length: number}

function rowsOf(node: unknown, context: NativeContext): Rows | undefined {
  const positions = filterPositions(node, context)
  if (positions) return {positions, length: positions.length}
  const docs = nativeDocuments(node, context)
  return docs && {docs, length: docs.length}
}

function docAt(rows: Rows, context: NativeContext, index: number): Doc {
  return (rows.positions ? context.docs[rows.positions[index] as number] : rows.docs[index]) as Doc
}

/** `*[<conjunction>]`: the ascending positions of the view's documents that pass. */
function filterPositions(node: unknown, context: NativeContext): Int32Array | undefined {
  if (!isRecord(node) || node.type !== 'Filter' || !isRecord(node.base)) return undefined
  if (node.base.type !== 'Everything') return undefined
  const key = JSON.stringify(node.expr)
  const known = context.filtered.get(key)
  if (known) return known
  const atoms = conjunction(node.expr, context)
  if (!atoms) return undefined
  const bits = atoms.map((each) => each.bits())
  const {docs} = context
  // Indexed loops here: see rewriteTextQuery.ts `matchingDocs`.
  const passes = (position: number): boolean => {
    for (let k = 0; k < bits.length; k++) if ((bits[k] as Uint8Array)[position] !== 1) return false
    return true
  }
  // A required match to few documents: only those are tested, in dataset order.
  const sets = requiredSets(node.expr, context).sort((a, b) => a.size - b.size)
  const smallest = sets[0]
  let positions: Int32Array
  if (smallest?.byPosition === true && smallest.size < docs.length / 8) {
    const among = smallest.positions()
    positions = context.scratch.int32(among.length)
    let n = 0
    for (let k = 0; k < among.length; k++) {
      const position = among[k] as number
      if (passes(position)) positions[n++] = position
    }
    positions = positions.subarray(0, n)
  } else {
    // At most the smallest set's documents pass, when it matched by position (by id, a
    // document matches wherever its id occurs).
    positions = context.scratch.int32(smallest?.byPosition === true ? smallest.size : docs.length)
    let n = 0
    for (let position = 0; position < docs.length; position++)
      if (passes(position)) positions[n++] = position
    positions = positions.subarray(0, n)
  }
  context.filtered.set(key, positions)
  return positions
}

/** The documents `node` evaluates to, computed here; undefined when its shape is not taken. */
export function nativeDocuments(node: unknown, context: NativeContext): Doc[] | undefined {
  if (!isRecord(node)) return undefined
  const positions = filterPositions(node, context)
  if (positions) return Array.from(positions, (position) => context.docs[position] as Doc)
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
    const {rows, scores} = result
    const copies = Array.from(scores, (score, i) =>
      Object.assign({}, docAt(rows, context, i), {_score: score}),
    )
    return copies.sort((a, b) => b._score - a._score)
  }
  if (node.name === 'order') return ordered(node, context, undefined)
  return undefined
}

/**
 * Per view, each position's stored `_score` (a document may hold one, which `score()` adds to),
 * or null when none does: reading a property that 10k documents of many shapes lack cost a
 * search at 10k posts ~0.2 ms.
 */
const storedScoresByView = new WeakMap<Doc[], Float64Array | null>()

function storedScores(docs: Doc[]): Float64Array | null {
  let stored = storedScoresByView.get(docs)
  if (stored !== undefined) return stored
  stored = null
  for (let i = 0; i < docs.length; i++) {
    const score = (docs[i] as Doc)._score
    if (typeof score !== 'number') continue
    stored ??= new Float64Array(docs.length)
    stored[i] = score
  }
  storedScoresByView.set(docs, stored)
  return stored
}

function columnScorers(args: unknown, context: NativeContext): ColumnScorer[] | undefined {
  const columns: ColumnScorer[] = []
  for (const arg of Array.isArray(args) ? args : []) {
    const column = columnScorer(arg, context)
    if (!column) return undefined
    columns.push(column)
  }
  return columns
}

/** `score()`'s sums for each row of its base, in the base's order (no copies yet). */
function scored(
  node: Record<string, unknown>,
  context: NativeContext,
): {rows: Rows; scores: Float64Array} | undefined {
  const columns = columnScorers(node.args, context)
  if (!columns || columns.length === 0) return undefined
  const rows = rowsOf(node.base, context)
  if (!rows) return undefined
  // Each row starts from its document's own `_score`, as groq-js's score() does.
  const scores = context.scratch.float64(rows.length)
  if (rows.positions) {
    const stored = storedScores(context.docs)
    if (stored)
      for (let i = 0; i < rows.length; i++)
        scores[i] = stored[rows.positions[i] as number] as number
  } else {
    for (let i = 0; i < rows.length; i++) {
      const score = (rows.docs[i] as Doc)._score
      if (typeof score === 'number') scores[i] = score
    }
  }
  for (const add of columns) add(rows, scores)
  return {rows, scores}
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
  const rows = withScores?.rows ?? rowsOf(base, context)
  if (!rows) return undefined
  const scores = withScores?.scores
  const withScore = (index: number): Doc => {
    const doc = docAt(rows, context, index)
    const score = scores?.[index]
    return score === undefined ? doc : Object.assign({}, doc, {_score: score})
  }
  const compare =
    rankedCompare(keys, rows, scores, context) ?? valueCompare(keys, rows, scores, context)
  const indices =
    limit !== undefined && limit < rows.length
      ? firstOf(rows.length, limit, compare)
      : Array.from({length: rows.length}, (_, i) => i).sort(compare)
  return indices.map(withScore)
}

/** Compares two rows by the keys' values read on the spot (any base, any keys). */
function valueCompare(
  keys: Key[],
  rows: Rows,
  scores: Float64Array | undefined,
  context: NativeContext,
): (a: number, b: number) => number {
  const valueOf = (index: number, path: Path): unknown => {
    const score = scores?.[index]
    return score !== undefined && path[0] === '_score'
      ? path.length === 1
        ? score
        : null
      : valueAt(docAt(rows, context, index), path)
  }
  return (a, b) => {
    for (const {path, desc} of keys) {
      const c = totalCompare(valueOf(a, path), valueOf(b, path))
      if (c !== 0) return desc ? -c : c
    }
    return tieBreak(scores?.[a], scores?.[b], a, b)
  }
}

/**
 * Compares two rows of a filter over `*` by the view's rank for the keys that read the
 * documents, after a leading `_score` key of a `score()` base: the same order as
 * `valueCompare`'s, with numbers. Undefined for other shapes (`_score` elsewhere among the keys
 * of a `score()` base, rows that are not the view's).
 */
function rankedCompare(
  keys: Key[],
  rows: Rows,
  scores: Float64Array | undefined,
  context: NativeContext,
): ((a: number, b: number) => number) | undefined {
  const positions = rows.positions
  if (!positions) return undefined
  const isScore = (key: Key | undefined) => key?.path.length === 1 && key.path[0] === '_score'
  const leading = scores && isScore(keys[0]) ? keys[0] : undefined
  const rest = leading ? keys.slice(1) : keys
  if (scores && rest.some((key) => key.path[0] === '_score')) return undefined
  const rank = viewRank(rest, context.docs)
  return (a, b) => {
    if (leading && scores) {
      const c = (scores[a] as number) - (scores[b] as number)
      if (c !== 0) return leading.desc ? -c : c
    }
    const c = (rank[positions[a] as number] as number) - (rank[positions[b] as number] as number)
    if (c !== 0) return c
    return tieBreak(scores?.[a], scores?.[b], a, b)
  }
}

/**
 * Per view and keys, each position's rank in the view's order by those keys: equal keys, equal
 * rank. Computed with a sort of the view once (~3 ms at 10k posts), then every search ordered so
 * reads it. Bounded per view.
 */
const ranksByView = new WeakMap<Doc[], Map<string, Int32Array>>()
const maxRanksPerView = 16

function viewRank(keys: Key[], docs: Doc[]): Int32Array {
  let byKeys = ranksByView.get(docs)
  if (!byKeys) ranksByView.set(docs, (byKeys = new Map()))
  const name = JSON.stringify(keys)
  const known = byKeys.get(name)
  if (known) return known
  // Each key's values and their kinds' places in totalCompare's order, read once: the sort's
  // ~140k comparisons at 10k posts then compare numbers and strings, not kinds.
  const columns = keys.map(({path, desc}) => {
    const values = docs.map((doc) => valueAt(doc, path))
    const kinds = Int8Array.from(values, (value) => typeOrder[kindOf(value)] ?? 100)
    return {values, kinds, sign: desc ? -1 : 1}
  })
  const compare = (a: number, b: number): number => {
    for (const {values, kinds, sign} of columns) {
      const kindA = kinds[a] as number
      const kindB = kinds[b] as number
      if (kindA !== kindB) return sign * (kindA - kindB)
      // Equal places: one kind (number 2, string 3, boolean 4), or anything else (100), all equal.
      if (kindA === 100) continue
      const x = values[a]
      const y = values[b]
      const c =
        kindA === 3
          ? String(x) < String(y)
            ? -1
            : String(x) > String(y)
              ? 1
              : 0
          : Number(x) - Number(y)
      if (c !== 0) return sign * c
    }
    return 0
  }
  // A plain array: V8 sorts it with a comparator several times faster than a typed array.
  const order = Array.from(docs.keys()).sort(compare)
  const rank = new Int32Array(docs.length)
  let current = 0
  for (let i = 0; i < order.length; i++) {
    if (i > 0 && compare(order[i - 1] as number, order[i] as number) !== 0) current++
    rank[order[i] as number] = current
  }
  if (byKeys.size < maxRanksPerView) byKeys.set(name, rank)
  return rank
}

/** After equal keys: higher score first (score()'s own order), then base position. */
function tieBreak(
  scoreA: number | undefined,
  scoreB: number | undefined,
  a: number,
  b: number,
): number {
  if (scoreA !== undefined && scoreB !== undefined && scoreA !== scoreB) return scoreB - scoreA
  return a - b
}

/** The first `count` of positions 0…size-1 in `compare`'s order (a total order), unsorted rest. */
function firstOf(size: number, count: number, compare: (a: number, b: number) => number): number[] {
  const out: number[] = []
  if (count <= 0) return out
  for (let index = 0; index < size; index++) {
    const last = out[count - 1]
    if (last !== undefined && compare(index, last) >= 0) continue
    let low = 0
    let high = out.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (compare(index, out[middle] as number) < 0) high = middle
      else low = middle + 1
    }
    out.splice(low, 0, index)
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
