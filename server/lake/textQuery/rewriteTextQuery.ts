import {evaluateSync, type ExprNode} from 'groq-js'
import {LakeError} from '../errors.ts'
import type {Doc} from '../types.ts'
import {isRecord} from '../../util/isRecord.ts'
import {searchableStrings} from './searchableStrings.ts'
import {scoreText, searchableText, type SearchableText} from './textMatch.ts'
import {parseTextQuery} from '../../../shared/textQuerySyntax.ts'

type Options = {params: Record<string, unknown>; sanity?: {projectId: string; dataset: string}}

function isTextQueryCall(node: unknown): node is {args: unknown[]} {
  return (
    isRecord(node) &&
    node.type === 'FuncCall' &&
    node.namespace === 'text' &&
    node.name === 'query' &&
    Array.isArray(node.args)
  )
}

/**
 * The folded words of `left` for each document, kept per document object (WeakMap): a worker's
 * replica keeps its document objects until they change, so repeated searches fold each text once.
 */
const readsOtherDocuments = /"type":"(Deref|Everything|Parent)"|"name":"now"/
const foldedTexts = new WeakMap<Doc, Map<string, SearchableText>>()

function textOf(left: ExprNode, leftKey: string, doc: Doc, docs: Doc[], options: Options) {
  let byLeft = foldedTexts.get(doc)
  const known = byLeft?.get(leftKey)
  if (known) return known
  const value = evaluateSync(left, {dataset: docs, root: doc, ...options})
  const text = searchableText(searchableStrings('data' in value ? value.data : null))
  if (!byLeft) foldedTexts.set(doc, (byLeft = new Map()))
  // A few paths per document at most (the Studio's boosts, the site's fields); bounded anyway.
  // Only what depends on the document alone: a dereference, `*` or `^` reads others, `now()` the clock.
  if (byLeft.size < 16 && !readsOtherDocuments.test(leftKey)) byLeft.set(leftKey, text)
  return text
}

/** The ids of the documents whose `left` (evaluated with the document as `@`) satisfies the query. */
function matchingIds(left: ExprNode, query: string, docs: Doc[], options: Options): string[] {
  // A lone `*` is what the Studio's default search sends for an empty search box (its document
  // lists, e.g. the structure's "All posts"): every document, as on hosted Sanity.
  if (query.trim() === '*') return docs.map((doc) => doc._id)
  const clauses = parseTextQuery(query)
  if (clauses.length === 0) return []
  const leftKey = JSON.stringify(left)
  const ids: string[] = []
  for (const doc of docs) {
    if (scoreText(textOf(left, leftKey, doc, docs, options), clauses) > 0) ids.push(doc._id)
  }
  return ids
}

/**
 * groq-js parses `text::query()` but cannot evaluate it (its executor throws "not implemented"),
 * and offers no hook for a function of our own. So, before evaluation, every
 * `<left> match text::query(<string>)` becomes `_id in [<ids of the documents it matches>]`,
 * computed here over the same documents the query reads (so drafts only where the perspective
 * shows them). The result is the same as evaluating it document by document, as long as the
 * `match` runs with a dataset document as `@`: in a filter over `*` and in `score()`/`boost()`,
 * which is where Sanity's Studio and the site use it. `score()` counts such a match as 1, as it
 * counts any boolean, and `boost()` adds its weight.
 */
export function rewriteTextQueries(tree: ExprNode, docs: Doc[], options: Options): ExprNode {
  // The same match often appears twice (a page and its count): computed once per query.
  const computed = new Map<string, string[]>()
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      let changed = false
      const next = node.map((item) => {
        const after = rewrite(item)
        if (after !== item) changed = true
        return after
      })
      return changed ? next : node
    }
    if (!isRecord(node) || node.type === 'Value') return node
    if (node.type === 'OpCall' && node.op === 'match' && isTextQueryCall(node.right)) {
      const [argument] = node.right.args
      if (!isRecord(argument) || argument.type !== 'Value' || typeof argument.value !== 'string') {
        throw new LakeError(
          400,
          'queryError',
          'text::query() takes one string (a literal or a param)',
        )
      }
      const key = JSON.stringify([node.left, argument.value])
      let ids = computed.get(key)
      if (!ids)
        computed.set(key, (ids = matchingIds(exprNode(node.left), argument.value, docs, options)))
      return {
        type: 'OpCall',
        op: 'in',
        left: {type: 'AccessAttribute', name: '_id'},
        right: {type: 'Value', value: ids},
      }
    }
    let copy: Record<string, unknown> | undefined
    for (const [key, value] of Object.entries(node)) {
      const after = rewrite(value)
      if (after !== value) {
        copy ??= {...node}
        copy[key] = after
      }
    }
    return copy ?? node
  }
  return exprNode(rewrite(tree))
}

/** A node of groq-js's tree: what the walk above returns is one, and so is any `left`. */
function exprNode(value: unknown): ExprNode {
  if (!isRecord(value) || typeof value.type !== 'string') throw new Error('not a GROQ node')
  // groq-js's ExprNode is a union of plain objects keyed by `type`; the walk keeps their shape.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
  return value as unknown as ExprNode
}
