import {evaluateSync, type ExprNode} from 'groq-js'
import {isRecord} from '../../util/isRecord.ts'
import type {Doc} from '../types.ts'
import {idLookup, internedKey} from './treeLookups.ts'
import {docsById} from './matchedDocs.ts'

type Options = {params: Record<string, unknown>; sanity?: {projectId: string; dataset: string}}

/**
 * Aggregates that always yield a number or null: their value crosses the rewrite's lookup as
 * plain JSON unchanged (a date-time or a stream would not).
 */
const numericAggregates = new Set([
  'global::count',
  'global::length',
  'global::round',
  'math::sum',
  'math::avg',
  'math::min',
  'math::max',
])

/** Functions whose value depends on their arguments alone (no clock, no caller, no mutation). */
const pureFunctions = new Set([
  ...numericAggregates,
  'global::defined',
  'global::coalesce',
  'global::lower',
  'global::upper',
  'global::string',
  'global::boolean',
  'global::select',
  'string::split',
  'string::startsWith',
  'array::join',
  'array::compact',
  'array::unique',
  'array::intersects',
  'pt::text',
])

/** Nodes that read only the value they are evaluated on (`@`, its fields and literals). */
const localNodes = new Set([
  'This',
  'Value',
  'AccessAttribute',
  'AccessElement',
  'Slice',
  'ArrayCoerce',
  'Filter',
  'Map',
  'FlatMap',
  'Projection',
  'Object',
  'ObjectAttributeValue',
  'ObjectSplat',
  'ObjectConditionalSplat',
  'Array',
  'ArrayElement',
  'OpCall',
  'And',
  'Or',
  'Not',
  'Neg',
  'Pos',
  'Group',
  'Select',
  'SelectAlternative',
  'InRange',
  'FuncCall',
])

function functionName(node: Record<string, unknown>): string {
  return `${String(node.namespace)}::${String(node.name)}`
}

/** Whether `node` reads only `@`: no `^`, `*`, `->`, parameter, clock or other function. */
function readsOnlyThis(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(readsOnlyThis)
  if (!isRecord(node)) return true
  if (node.type === 'Value') return true
  if (typeof node.type !== 'string' || !localNodes.has(node.type)) return false
  if (node.type === 'FuncCall' && !pureFunctions.has(functionName(node))) return false
  return Object.values(node).every(readsOnlyThis)
}

/** Whether evaluating `node` walks a document's content (its arrays or its text), not a field. */
function walksContent(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(walksContent)
  if (!isRecord(node) || node.type === 'Value') return false
  if (['Filter', 'Map', 'FlatMap', 'Projection'].includes(String(node.type))) return true
  if (node.type === 'FuncCall' && ['pt::text', 'string::split'].includes(functionName(node)))
    return true
  return Object.values(node).some(walksContent)
}

/**
 * A projection attribute worth keeping per document: a numeric aggregate of the document's own
 * content, such as each card's word count (shared/siteQueries.ts `bodyWords`), which groq-js
 * computes word by word (at 10k synthetic posts ~0.3 of a search's ~0.76 ms in its worker).
 */
function isMemoizable(value: unknown): value is ExprNode {
  return (
    isRecord(value) &&
    value.type === 'FuncCall' &&
    numericAggregates.has(functionName(value)) &&
    readsOnlyThis(value) &&
    // Evaluated on the view's document, not on a `score()` copy of it (rowsById).
    !JSON.stringify(value).includes('"_score"') &&
    walksContent(value)
  )
}

/**
 * Each document's memoized values by attribute key, kept per document object: a worker's replica
 * keeps a document's object until it changes, so a changed document is computed afresh.
 */
const memoByDoc = new WeakMap<Doc, Map<string, number | null>>()
const maxPerDocument = 16
/** No document id holds a NUL: a `_ref` starting with this is one of the memo's lookups. */
const memoMark = '\u0000memo\u0000'

/**
 * The per-document memo of one query's evaluation. `rewriteMap` replaces, in a projection over
 * documents the rewrite already computed (a search's page), each memoizable attribute by a
 * lookup `{"_ref": <mark>n<NUL> + _id}->` that groq-js hands to `answer`, as the text matches'
 * membership tests do (rewriteTextQuery.ts): a card's word count is computed once per document
 * version instead of once per search.
 */
export class DocumentMemo {
  private readonly lookups: Array<{key: string; expr: ExprNode; byId: Map<string, Doc>}> = []
  private readonly docs: Doc[]
  private readonly options: Options

  constructor(docs: Doc[], options: Options) {
    this.docs = docs
    this.options = options
  }

  /**
   * `node` (a `Map` whose base is already the value `rows`) with its memoizable attributes
   * replaced by lookups, or undefined when it has none or the rows' ids cannot name them.
   */
  rewriteMap(node: Record<string, unknown>, rows: unknown): Record<string, unknown> | undefined {
    const projection = node.expr
    if (!isRecord(projection) || projection.type !== 'Projection') return undefined
    if (!isRecord(projection.base) || projection.base.type !== 'This') return undefined
    const object = projection.expr
    if (!isRecord(object) || object.type !== 'Object' || !Array.isArray(object.attributes))
      return undefined
    // Each attribute is checked once: the check walks its tree.
    const memoizable = object.attributes.map((attribute: unknown) => {
      const value = attributeValue(attribute)
      return isMemoizable(value) ? value : undefined
    })
    if (memoizable.every((value) => value === undefined)) return undefined
    const byId = this.rowsById(rows)
    if (!byId) return undefined
    const attributes: unknown[] = object.attributes.map((attribute: unknown, i) => {
      const value = memoizable[i]
      if (!isRecord(attribute) || value === undefined) return attribute
      const n = this.lookups.push({key: internedKey(value), expr: value, byId}) - 1
      return {...attribute, value: idLookup(memoMark, n)}
    })
    return {...node, expr: {...projection, expr: {...object, attributes}}}
  }

  /** The memo's answer to a dereference of `ref`, or undefined when `ref` is not one of its. */
  answer(ref: string): {value: number | null} | undefined {
    if (!ref.startsWith(memoMark)) return undefined
    const end = ref.indexOf('\u0000', memoMark.length)
    const found = this.lookups[Number(ref.slice(memoMark.length, end))]
    const doc = found?.byId.get(ref.slice(end + 1))
    if (!found || !doc) return {value: null}
    const memo = memoByDoc.get(doc)
    const known = memo?.get(found.key)
    if (known !== undefined) return {value: known}
    const result = evaluateSync(found.expr, {...this.options, dataset: this.docs, root: doc})
    const value = typeof result.data === 'number' ? result.data : null
    if (!memo) memoByDoc.set(doc, new Map([[found.key, value]]))
    else if (memo.size < maxPerDocument) memo.set(found.key, value)
    return {value}
  }

  /**
   * The rows by `_id`, each as the view's own document object when it is one or a `score()` copy
   * of one (the view's object plus `_score`, which a memoizable attribute cannot read): that
   * object is the memo's key. Undefined when the rows are not documents with distinct ids.
   */
  private rowsById(rows: unknown): Map<string, Doc> | undefined {
    if (!Array.isArray(rows)) return undefined
    const viewById = docsById(this.docs)
    const byId = new Map<string, Doc>()
    for (const row of rows) {
      if (!isRecord(row) || typeof row._id !== 'string' || byId.has(row._id)) return undefined
      const own = viewById.get(row._id)
      byId.set(row._id, own && isSameDocument(row, own) ? own : toDoc(row))
    }
    return byId
  }
}

function attributeValue(attribute: unknown): unknown {
  return isRecord(attribute) && attribute.type === 'ObjectAttributeValue'
    ? attribute.value
    : undefined
}

/** The view's object itself, or a copy of it with `_score` (nativePipeline.ts `score()`). */
function isSameDocument(row: Record<string, unknown>, doc: Doc): boolean {
  if (row === doc) return true
  const keys = Object.keys(row)
  let shared = 0
  for (const key of keys) {
    if (key === '_score') continue
    if (!Object.prototype.hasOwnProperty.call(doc, key) || doc[key] !== row[key]) return false
    shared++
  }
  const docKeys = Object.keys(doc)
  return shared === docKeys.length - (docKeys.includes('_score') ? 1 : 0)
}

/** A row that is no view's document: memoized under its own object (dropped with it). */
function toDoc(row: Record<string, unknown>): Doc {
  // Checked by rowsById: a record with a string `_id`, which is all Doc requires of it here.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
  return row as Doc
}
