import {evaluateSync, type ArrayElementNode, type ExprNode} from 'groq-js'
import {LakeError} from '../errors.ts'
import type {Doc} from '../types.ts'
import {isRecord} from '../../util/isRecord.ts'
import {searchableStrings} from './searchableStrings.ts'
import {
  idsOf,
  isCurrent,
  joinedText,
  satisfies,
  searchableText,
  type FoldedText,
} from './textMatch.ts'
import {nativeValue, simpleValue} from './nativePipeline.ts'
import {parseTextQuery} from '../../../shared/textQuerySyntax.ts'
import type {TextCandidates} from './textIndexReader.ts'
import {docsById, idsAreUnique, MatchedDocs} from './matchedDocs.ts'
import {
  buildPostings,
  keptPostings,
  mayBuildPostings,
  positionOf,
  postingsMatch,
} from './postings.ts'
import {DocumentMemo} from './documentMemo.ts'
import {ScratchArrays} from './scratchArrays.ts'
import {TextScores} from './textScores.ts'
import {idLookup, internedKey} from './treeLookups.ts'

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
const foldedTexts = new WeakMap<Doc, Map<string, FoldedText>>()

function textOf(
  left: ExprNode,
  leftKey: string,
  doc: Doc,
  docs: Doc[],
  options: Options,
): FoldedText {
  let byLeft = foldedTexts.get(doc)
  const known = byLeft?.get(leftKey)
  if (known && isCurrent(known)) return known
  const text = foldedTextOf(left, doc, docs, options)
  if (!byLeft) foldedTexts.set(doc, (byLeft = new Map()))
  // A few paths per document at most (the Studio's boosts, the site's fields); bounded anyway.
  // Only what depends on the document alone: a dereference, `*` or `^` reads others, `now()` the clock.
  if (byLeft.size < 16 && !readsOtherDocuments.test(leftKey)) byLeft.set(leftKey, text)
  return text
}

/**
 * The folded texts of `left` for `doc`. An array (`[title, excerpt, pt::text(body)]`) offers its
 * elements' strings in order, so its texts are its elements' texts one after the other, each
 * kept on its own (the Studio and the site search the same fields alone and together). Simple
 * paths and `pt::text()` are read here; anything else is evaluated by groq-js.
 */
function foldedTextOf(left: ExprNode, doc: Doc, docs: Doc[], options: Options): FoldedText {
  if (left.type === 'Array') {
    const elements = left.elements.map((element: ArrayElementNode) => exprNode(element.value))
    // Folding one element may restart the numbering (textMatch.ts): then the others are
    // folded again, which adds far fewer words than a restart takes.
    for (let attempt = 0; attempt < 3; attempt++) {
      const parts = elements.map((value: ExprNode) =>
        textOf(value, internedKey(value), doc, docs, options),
      )
      if (parts.every(isCurrent)) return joinedText(parts)
    }
    throw new Error('The word numbering restarted while one document was folded')
  }
  const simple = simpleValue(left, doc)
  const value = simple
    ? simple.value
    : ((result) => ('data' in result ? result.data : null))(
        evaluateSync(left, {dataset: docs, root: doc, ...options}),
      )
  return searchableText(searchableStrings(value))
}

/**
 * Whether `left` can only yield strings of the document it is evaluated on (its fields, their
 * elements, `pt::text` of them, filtered): then the text index, which holds every word of each
 * stored document, finds every document it can match. Anything else (a dereference, `*`, `^`,
 * a literal, a concatenation, another function) is checked over every document.
 */
function readsOnlyItsDocument(node: unknown, inFilter = false): boolean {
  if (Array.isArray(node)) return node.every((item) => readsOnlyItsDocument(item, inFilter))
  if (!isRecord(node)) return true
  switch (node.type) {
    case 'This':
      return true
    case 'Value':
      // A literal in a filter's condition or a slice's bound yields no text; elsewhere it would.
      return inFilter
    case 'AccessAttribute':
    case 'AccessElement':
    case 'Slice':
    case 'ArrayCoerce':
    case 'ArrayElement':
      return readsOnlyItsDocument(node.base ?? null, inFilter)
    case 'Array':
      return readsOnlyItsDocument(node.elements, inFilter)
    case 'Filter':
      // The condition only selects; it contributes no text, whatever it reads.
      return readsOnlyItsDocument(node.base, inFilter)
    case 'FuncCall':
      return node.namespace === 'pt' && node.name === 'text' && readsOnlyItsDocument(node.args)
    default:
      return inFilter && ['OpCall', 'And', 'Or', 'Not'].includes(String(node.type))
  }
}

/** The documents whose `left` (evaluated with the document as `@`) satisfies the query. */
function matchingDocs(
  left: ExprNode,
  query: string,
  docs: Doc[],
  options: Options,
  index: TextCandidates | undefined,
  scratch: ScratchArrays,
): MatchedDocs {
  const bits = scratch.uint8(docs.length)
  const unique = idsAreUnique(docs)
  // A lone `*` is what the Studio's default search sends for an empty search box (its document
  // lists, e.g. the structure's "All posts"): every document, as on hosted Sanity.
  if (query.trim() === '*') {
    bits.fill(1)
    const everything = new TextScores('everything', () => searchableText([]), undefined, scratch)
    return new MatchedDocs(docs, bits, unique, everything)
  }
  const clauses = parseTextQuery(query)
  if (clauses.length === 0) return new MatchedDocs(docs, bits, unique)
  const leftKey = internedKey(left)
  const aligned = alignedTexts(docs, leftKey)
  const textAt = textReader(left, leftKey, docs, options, aligned)
  const check = (i: number) => {
    if (satisfies(textAt(i), clauses)) bits[i] = 1
  }
  let postings = aligned ? keptPostings(docs, leftKey) : undefined
  const matched = () =>
    new MatchedDocs(docs, bits, unique, new TextScores(clauses, textAt, postings, scratch))
  // The index names stored documents; a perspective's view shows a draft under its published
  // id with `_originalId`: either name makes it a candidate. Only documents of this view are
  // checked, so a draft never reaches a reader who cannot see it.
  // A word in most documents: the index would name them all; the postings or a scan answer.
  const limit = Math.max(64, Math.floor(docs.length / 4))
  if (!postings) {
    const candidates = readsOnlyItsDocument(left) ? index?.candidates(clauses, limit) : undefined
    if (candidates) {
      // Few candidates: only their positions are visited (a document may be named by its
      // stored id or, in a perspective's view, by the `_originalId` it came from).
      for (const id of candidates) for (const i of positionsOf(docs).get(id) ?? []) check(i)
      return matched()
    }
    // Every document is read anyway: inverting their words costs little more, and the next
    // search of this view and path is a lookup.
    if (aligned && mayBuildPostings(docs, leftKey)) postings = buildPostings(docs, leftKey, textAt)
  }
  const found = postings && postingsMatch(postings, clauses, scratch)
  // Indexed loops: `for…of` over a typed array makes an iterator result per element until V8
  // optimizes the function, and a query worker's profile showed ~1 MB of them per search.
  // A list of one word's entries is read as it is, not copied into positions first.
  const positions = found?.positions
  if (positions && found.exact && found.packed)
    for (let k = 0; k < positions.length; k++) bits[positionOf(positions[k] as number)] = 1
  else if (positions && found.exact)
    for (let k = 0; k < positions.length; k++) bits[positions[k] as number] = 1
  else if (positions && found.packed)
    for (let k = 0; k < positions.length; k++) check(positionOf(positions[k] as number))
  else if (positions) for (let k = 0; k < positions.length; k++) check(positions[k] as number)
  else for (let i = 0; i < docs.length; i++) check(i)
  return matched()
}

/**
 * Per view (the worker's array of what one perspective shows, kept until the next change) and
 * path, each document's texts by position: one lookup per query instead of one per document.
 */
/** Per view, each document's positions by its `_id` and its `_originalId` (a perspective's). */
const positionsByView = new WeakMap<Doc[], Map<string, number[]>>()

function positionsOf(docs: Doc[]): Map<string, number[]> {
  let positions = positionsByView.get(docs)
  if (positions) return positions
  positions = new Map()
  const add = (id: string, i: number) => {
    const list = positions?.get(id)
    if (list) list.push(i)
    else positions?.set(id, [i])
  }
  for (const [i, doc] of docs.entries()) {
    add(doc._id, i)
    if (typeof doc._originalId === 'string' && doc._originalId !== doc._id) add(doc._originalId, i)
  }
  positionsByView.set(docs, positions)
  return positions
}

type AlignedText = {doc: Doc; text: FoldedText}
const alignedByView = new WeakMap<Doc[], Map<string, Array<AlignedText | undefined>>>()

function alignedTexts(docs: Doc[], leftKey: string): Array<AlignedText | undefined> | undefined {
  if (readsOtherDocuments.test(leftKey)) return undefined
  let byLeft = alignedByView.get(docs)
  if (!byLeft) alignedByView.set(docs, (byLeft = new Map()))
  let aligned = byLeft.get(leftKey)
  if (!aligned) {
    if (byLeft.size >= 32) return undefined
    byLeft.set(leftKey, (aligned = new Array<AlignedText | undefined>(docs.length)))
  }
  return aligned
}

/** Reads the folded text of `left` at a position of the view, through its aligned slots. */
function textReader(
  left: ExprNode,
  leftKey: string,
  docs: Doc[],
  options: Options,
  aligned: Array<AlignedText | undefined> | undefined,
): (i: number) => FoldedText {
  return (i) => {
    const doc = docs[i] as Doc
    const slot = aligned?.[i]
    // The slot is trusted only for the very document it was filled for.
    if (slot?.doc === doc && isCurrent(slot.text)) return slot.text
    const text = textOf(left, leftKey, doc, docs, options)
    if (aligned) aligned[i] = {doc, text}
    return text
  }
}

/** The `left` of every `<left> match text::query(…)` in a query's tree. */
function matchedPaths(node: unknown, found: ExprNode[] = []): ExprNode[] {
  if (Array.isArray(node)) for (const item of node) matchedPaths(item, found)
  else if (isRecord(node) && node.type !== 'Value') {
    if (node.type === 'OpCall' && node.op === 'match' && isTextQueryCall(node.right))
      found.push(exprNode(node.left))
    for (const value of Object.values(node)) matchedPaths(value, found)
  }
  return found
}

/**
 * Prepares, off any request, what a search of `tree`'s paths over the view `docs` will read:
 * folds and numbers the words of `docs[from…to)` (kept per document until it changes); called
 * with `from` past the end, it inverts one path's words into postings (patched from the previous
 * view's when few documents changed). Returns whether everything is ready. A query worker calls
 * it a chunk at a time when its replica loads or changes, so a search does not do this work.
 */
export function warmTextSearch(tree: ExprNode, docs: Doc[], from: number, to: number): boolean {
  const options: Options = {params: {}}
  const lefts: ExprNode[] = []
  for (const left of matchedPaths(tree)) {
    // An array of paths folds its elements' texts: each is warmed, then the array's.
    if (left.type === 'Array') for (const element of left.elements) lefts.push(element.value)
    lefts.push(left)
  }
  for (const left of lefts) {
    const leftKey = internedKey(left)
    const aligned = alignedTexts(docs, leftKey)
    if (!aligned || keptPostings(docs, leftKey) || !mayBuildPostings(docs, leftKey)) continue
    const textAt = textReader(left, leftKey, docs, options, aligned)
    if (from < docs.length) {
      for (let i = from; i < Math.min(to, docs.length); i++) idsOf(textAt(i))
      continue
    }
    // One path's inversion per call: up to ~35 ms at 10k posts when nothing can be patched.
    if (!buildPostings(docs, leftKey, textAt)) continue
    return false
  }
  return from >= docs.length
}

/** What a rewritten query needs at evaluation: the matched sets, looked up by Deref. */
export interface RewrittenQuery {
  tree: ExprNode
  /** groq-js's `dereference` option: answers the rewrite's membership tests, and plain `->`. */
  dereference: (ref: {_ref: string}) => unknown
}

/** No document id holds a NUL: a `_ref` starting with it is one of the rewrite's lookups. */
const lookupMark = '\u0000text::query\u0000'

/**
 * groq-js parses `text::query()` but cannot evaluate it (its executor throws "not implemented"),
 * and offers no hook for a function of our own. So, before evaluation, every
 * `<left> match text::query(<string>)` is computed here over the same documents the query reads
 * (so drafts only where the perspective shows them), narrowed by the text index and decided by
 * the exact check, and becomes `{"_ref": <mark n> + _id}-> == true`: groq-js hands that
 * dereference to ours, which answers from the matched set in O(1) (an `_id in [...]` list cost
 * O(ids) per document). A filter over `*` that requires such a match reads only the matched
 * documents, in dataset order, and the common search pipeline (a filter, `score()`, `order()`) is
 * computed in plain JavaScript when its shape allows (nativePipeline.ts). The result is the same as evaluating it document by document, as
 * long as the `match` runs with a dataset document as `@`: in a filter over `*` and in
 * `score()`/`boost()`, which is where Sanity's Studio and the site use it. `score()` scores such a
 * match by how often its terms occur in the text searched, as groq-js scores a `match`
 * (textScores.ts), and `boost()` adds its weight to a score above 0.
 */
export function rewriteTextQueries(
  tree: ExprNode,
  docs: Doc[],
  options: Options,
  index?: TextCandidates,
  scratch = new ScratchArrays(),
): RewrittenQuery {
  // The same match often appears twice (a page and its count): computed once per query.
  const computed = new Map<string, number>()
  const matched: MatchedDocs[] = []
  const lookupOf = (node: Record<string, unknown>): number | undefined => {
    if (node.type !== 'OpCall' || node.op !== 'match' || !isTextQueryCall(node.right))
      return undefined
    const [argument] = node.right.args
    if (!isRecord(argument) || argument.type !== 'Value' || typeof argument.value !== 'string') {
      throw new LakeError(
        400,
        'queryError',
        'text::query() takes one string (a literal or a param)',
      )
    }
    const key = JSON.stringify([node.left, argument.value])
    let n = computed.get(key)
    if (n === undefined) {
      const left = exprNode(node.left)
      n = matched.push(matchingDocs(left, argument.value, docs, options, index, scratch)) - 1
      computed.set(key, n)
    }
    return n
  }
  /** The sets a filter's condition requires (its `&&` conjuncts that are text matches). */
  const required = (expr: unknown): number[] => {
    if (!isRecord(expr)) return []
    if (expr.type === 'And') return [...required(expr.left), ...required(expr.right)]
    if (expr.type === 'Group') return required(expr.base)
    const n = lookupOf(expr)
    return n === undefined ? [] : [n]
  }
  const nativeContext = {
    docs,
    filtered: new Map<string, Int32Array>(),
    scratch,
    matchSet: (node: Record<string, unknown>): MatchedDocs | undefined => {
      const n = lookupOf(node)
      return n === undefined ? undefined : matched[n]
    },
  }
  const memo = new DocumentMemo(docs, options)
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
    const n = lookupOf(node)
    if (n !== undefined) return membership(n)
    const native = nativeValue(node, nativeContext)
    if (native) return {type: 'Value', value: native.value}
    // groq-js's score() scores a `match` by its terms' frequencies (its `evaluateScore`): in a
    // score position, a text match becomes a `match` groq-js scores as this one (below).
    if (node.type === 'PipeFuncCall' && node.name === 'score' && Array.isArray(node.args))
      return {...node, base: rewrite(node.base), args: node.args.map(scoring)}
    let copy: Record<string, unknown> | undefined
    for (const [key, value] of Object.entries(node)) {
      const after = rewrite(value)
      if (after !== value) {
        copy ??= {...node}
        copy[key] = after
      }
    }
    if (node.type === 'Filter' && isRecord(node.base) && node.base.type === 'Everything') {
      const sets = required(node.expr).map((i) => matched[i])
      if (sets.length > 0) {
        copy ??= {...node}
        copy.base = {
          type: 'Value',
          value: docs.filter((doc, i) => sets.every((set) => set?.hasAt(doc, i))),
        }
      }
    }
    // A projection over documents computed above (a page of results): their costly per-document
    // attributes, such as each card's word count, are kept per document version.
    if (node.type === 'Map' && isRecord(copy?.base) && copy.base.type === 'Value')
      return memo.rewriteMap(copy, copy.base.value) ?? copy
    return copy ?? node
  }
  /** A `score()` argument: where groq-js's `evaluateScore` scores a `match`, it scores ours. */
  const scoring = (node: unknown): unknown => {
    if (!isRecord(node)) return node
    const n = lookupOf(node)
    if (n !== undefined) return scoredMatch(n, matched[n]?.termCount ?? 0)
    if (node.type === 'FuncCall' && node.name === 'boost' && Array.isArray(node.args)) {
      const [inner, ...rest] = node.args
      return {...node, args: [scoring(inner), ...rest.map(rewrite)]}
    }
    if (node.type === 'And' || node.type === 'Or')
      return {...node, left: scoring(node.left), right: scoring(node.right)}
    return rewrite(node)
  }
  const rewritten = exprNode(rewrite(tree))
  const dereference = ({_ref: ref}: {_ref: string}): unknown => {
    const memoized = memo.answer(ref)
    if (memoized) return memoized.value
    if (ref.startsWith(scoreMark)) {
      const end = ref.indexOf('\u0000', scoreMark.length)
      const set = matched[Number(ref.slice(scoreMark.length, end))]
      return termTokens(set?.frequenciesOf(ref.slice(end + 1)))
    }
    if (ref.startsWith(lookupMark)) {
      const end = ref.indexOf('\u0000', lookupMark.length)
      const set = matched[Number(ref.slice(lookupMark.length, end))]
      return set?.has(ref.slice(end + 1)) ?? false
    }
    // As groq-js does without this option (the first document of the dataset with that id),
    // through the view's map instead of a scan.
    return docsById(docs).get(ref) ?? null
  }
  return {tree: rewritten, dereference}
}

/** No document id holds a NUL: a `_ref` starting with it is the rewrite's score lookup. */
const scoreMark = '\u0000text::score\u0000'

/**
 * `{"_ref": <mark>n<NUL> + _id}-> match "t0 t1 …"`: groq-js scores it (`processMatchScore`) as
 * the sum over terms `tk` of `saturated(how many tokens are "tk")`; the lookup answers, for a
 * document that matched, term k's frequency as that many tokens "tk" (`termTokens`), and for one
 * that did not, no token (score 0). So groq-js's score equals the native pipeline's, to the bit.
 */
function scoredMatch(n: number, terms: number): unknown {
  return {
    type: 'OpCall',
    op: 'match',
    left: idLookup(scoreMark, n),
    right: {
      type: 'Value',
      value: Array.from({length: Math.max(terms, 1)}, (_, k) => `t${k}`).join(' '),
    },
  }
}

function termTokens(frequencies: number[] | undefined): string[] {
  const tokens: string[] = []
  for (const [k, frequency] of (frequencies ?? []).entries())
    for (let i = 0; i < frequency; i++) tokens.push(`t${k}`)
  return tokens
}

/** `{"_ref": <mark>n<NUL> + _id}-> == true`: whether `@`'s id is in matched set `n`. */
function membership(n: number): unknown {
  return {
    type: 'OpCall',
    op: '==',
    left: idLookup(lookupMark, n),
    right: {type: 'Value', value: true},
  }
}

/** A node of groq-js's tree: what the walk above returns is one, and so is any `left`. */
function exprNode(value: unknown): ExprNode {
  if (!isRecord(value) || typeof value.type !== 'string') throw new Error('not a GROQ node')
  // groq-js's ExprNode is a union of plain objects keyed by `type`; the walk keeps their shape.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
  return value as unknown as ExprNode
}
