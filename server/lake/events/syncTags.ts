import type {ExprNode} from 'groq-js'
import {isRecord} from '../../util/isRecord.ts'
import type {Doc} from '../types.ts'

/**
 * Live-content sync tags (docs/studio-protocol.md, "Live events"): what a query answer depends on
 * (its `syncTags`), and what a commit fires (a live `message`). Opaque to clients; sound by
 * construction: whenever a document a query could return, or newly match, changes, one of the
 * query's tags fires.
 *
 * - `s1:t:<type>`: a query reads documents through `*[...]` whose filter pins `_type` to literal
 *   types; a commit fires it for the type before and after each changed public document (a
 *   document that newly matches, or stops matching, changes under one of these types).
 * - `s1:any`: a query has a `*` that is not pinned to types (or calls something that reads the
 *   whole dataset, as `text::query()` ranks against every document); every public commit fires it.
 * - `s1:ref`: a query dereferences (`->`), which may reach a document of any type; a commit fires
 *   it for a changed document that some document references (one that nothing refers to cannot
 *   be reached by `->`; the referrer's own change fires its type when it starts referring).
 * - `s1:drafts`: readers of drafts or versions (the owner, a preview session); a commit of a
 *   `drafts.*` or `versions.*` document fires it on `includeDrafts` streams.
 */
export const anyTag = 's1:any'
export const refTag = 's1:ref'
export const draftsTag = 's1:drafts'
export const typeTag = (type: string): string => `s1:t:${type}`

/** The types a filter pins `_type` to, or undefined when it leaves some type possible. */
function pinnedTypes(node: unknown): string[] | undefined {
  if (!isRecord(node)) return undefined
  switch (node.type) {
    case 'Group':
      return pinnedTypes(node.base)
    case 'And':
      // Every match satisfies both sides: either side's pin bounds it.
      return pinnedTypes(node.left) ?? pinnedTypes(node.right)
    case 'Or': {
      const left = pinnedTypes(node.left)
      const right = pinnedTypes(node.right)
      return left && right ? [...left, ...right] : undefined
    }
    case 'OpCall': {
      const {op, left, right} = node
      if (op === '==') {
        if (isTypeAttribute(left)) return literalStrings(right)
        if (isTypeAttribute(right)) return literalStrings(left)
      }
      if (op === 'in' && isTypeAttribute(left)) return literalStrings(right)
      return undefined
    }
    default:
      return undefined
  }
}

/** `_type` of the document being filtered (no base: the filter's own `@`). */
function isTypeAttribute(node: unknown): boolean {
  return (
    isRecord(node) &&
    node.type === 'AccessAttribute' &&
    node.name === '_type' &&
    (node.base === undefined || (isRecord(node.base) && node.base.type === 'This'))
  )
}

/** A string literal, or an array of them (a folded `$types` param, or `["a", "b"]`). */
function literalStrings(node: unknown): string[] | undefined {
  if (!isRecord(node)) return undefined
  if (node.type === 'Value') {
    const {value} = node
    if (typeof value === 'string') return [value]
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value
    return undefined
  }
  if (node.type === 'Array' && Array.isArray(node.elements)) {
    const types: string[] = []
    for (const element of node.elements) {
      if (!isRecord(element) || element.isSplat === true) return undefined
      const value = literalStrings(element.value)
      if (!value || value.length !== 1) return undefined
      types.push(value[0])
    }
    return types
  }
  return undefined
}

/** Functions that read documents other than through `*` and `->`. */
function readsEverything(node: Record<string, unknown>): boolean {
  if (node.type !== 'FuncCall') return false
  // text::query() ranks against the whole dataset; releases::all() reads the release documents.
  return (
    (node.namespace === 'text' && node.name === 'query') ||
    (node.namespace === 'releases' && node.name === 'all')
  )
}

/** The tags of a parsed query, sorted (see the module comment). */
export function queryTags(tree: ExprNode): string[] {
  const tags = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item)
      return
    }
    // A Value holds a folded param, possibly large: data, never a read.
    if (!isRecord(node) || node.type === 'Value') return
    if (node.type === 'Everything') tags.add(anyTag)
    else if (node.type === 'Deref') tags.add(refTag)
    else if (readsEverything(node)) tags.add(anyTag)
    if (node.type === 'Filter' && isRecord(node.base) && node.base.type === 'Everything') {
      const types = pinnedTypes(node.expr)
      if (types) {
        for (const type of types) tags.add(typeTag(type))
        walk(node.expr)
        return
      }
    }
    for (const value of Object.values(node)) walk(value)
  }
  walk(tree)
  return [...tags].sort()
}

/**
 * The tags a commit of public documents fires: their types before and after, `s1:any`, and
 * `s1:ref` when one of them is referenced (`referenced` answers for the ids it is given).
 */
export function changeTags(
  changes: Array<{id: string; before: Doc | null; after: Doc | null}>,
  referenced: (ids: Set<string>) => boolean,
): string[] {
  if (changes.length === 0) return []
  const tags = new Set<string>([anyTag])
  for (const {before, after} of changes) {
    if (before) tags.add(typeTag(before._type))
    if (after) tags.add(typeTag(after._type))
  }
  if (referenced(new Set(changes.map((change) => change.id)))) tags.add(refTag)
  return [...tags].sort()
}
