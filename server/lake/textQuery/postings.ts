import type {TextClause} from '../../../shared/textQuerySyntax.ts'
import type {Doc} from '../types.ts'
import type {ScratchArrays} from './scratchArrays.ts'
import {idsOf, wordGeneration, wordIdOf, type FoldedText} from './textMatch.ts'

/**
 * An inverted index of one view (the array of documents a perspective shows, which a query
 * worker keeps until its next change) for one searched path: each word number → the ascending
 * positions of the documents whose text holds it. A clause of one whole word is then its
 * posting list, and a query of such clauses an intersection of lists: a word in every post no
 * longer costs a check per post. Built from the documents' folded words, which are kept per
 * document across changes (rewriteTextQuery.ts), so building one after a commit only inverts them.
 */
export interface Postings {
  /** Each word's entries, ascending: `position << 8 | frequency` (see `entryOf`). */
  lists: Map<number, Int32Array>
  /** The view it was built for, and the word numbers of each of its documents (shared arrays). */
  docs: Doc[]
  perDoc: Int32Array[]
  generation: number
  /** Positions stored in all lists (4 bytes each): the memory it holds. */
  entries: number
}

/**
 * Bounds: a list is not built past this many entries (16 MB; 10k posts of 500 distinct words
 * each is 5M); a view keeps at most `maxPerView` paths' lists.
 */
const maxEntries = 8_000_000
const maxPerView = 8
const empty = new Int32Array(0)

/**
 * An entry is a position and how often the word occurs in that document's text, in one int32:
 * the frequencies `score()` reads (textScores.ts) then cost no array, and no object, of their own
 * (a list per word per path: tens of thousands at 10k real posts). Positions take 23 bits (a view
 * of more documents has no postings), frequencies 8: a word 255 times or more in one text is
 * stored as 255, and its exact count read from the text when a score needs it.
 */
const frequencyBits = 8
/** The frequency stored for a word 255 times or more in one text: count it in the text. */
export const saturatedFrequency = (1 << frequencyBits) - 1
const maxPositions = 1 << (31 - frequencyBits)

function entryOf(position: number, frequency: number): number {
  return (position << frequencyBits) | Math.min(frequency, saturatedFrequency)
}

/** The position of an entry. */
export function positionOf(entry: number): number {
  return entry >> frequencyBits
}

/** The stored frequency of an entry (`saturatedFrequency`: that many or more). */
export function frequencyOf(entry: number): number {
  return entry & saturatedFrequency
}

/**
 * Each word's occurrences in `words` into `tally` (indexed by word number), for the caller to
 * read and zero: counting in an array kept for a whole inversion allocates nothing per document.
 */
function tallyWords(words: Int32Array, tally: Int32Array): void {
  for (let i = 0; i < words.length; i++) {
    const id = words[i] as number
    if (id >= 0) tally[id] = (tally[id] as number) + 1
  }
}

const byView = new WeakMap<Doc[], Map<string, Postings | null>>()
/**
 * Per path, the postings of the last few views built: a worker's new view after a commit is
 * mostly the same documents at the same positions, so its postings are the previous ones patched
 * where documents changed or were appended, instead of a fresh inversion (~35 ms a path at 10k).
 */
const recent = new Map<string, Postings[]>()
const maxRecent = 3
/** Past this many changed positions, a fresh inversion is as cheap as patching. */
const maxPatched = 256

/** The kept postings of `docs` for `leftKey`, if built and still numbered as the words are. */
export function keptPostings(docs: Doc[], leftKey: string): Postings | undefined {
  const postings = byView.get(docs)?.get(leftKey)
  return postings && postings.generation === wordGeneration() ? postings : undefined
}

/** Whether postings may be built for another path of this view (bounded per view). */
export function mayBuildPostings(docs: Doc[], leftKey: string): boolean {
  const byLeft = byView.get(docs)
  return !byLeft || byLeft.has(leftKey) || byLeft.size < maxPerView
}

/** Builds and keeps the postings of `docs` for `leftKey`; undefined when over the bounds. */
export function buildPostings(
  docs: Doc[],
  leftKey: string,
  textAt: (position: number) => FoldedText,
): Postings | undefined {
  let byLeft = byView.get(docs)
  if (!byLeft) byView.set(docs, (byLeft = new Map()))
  if (!byLeft.has(leftKey) && byLeft.size >= maxPerView) return undefined
  const generation = wordGeneration()
  const derived = derive(docs, generation, textAt, recent.get(leftKey) ?? [])
  if (derived) return keep(byLeft, leftKey, derived)
  const perDoc: Int32Array[] = []
  const texts: FoldedText[] = []
  let entries = 0
  let top = -1
  for (let i = 0; i < docs.length; i++) {
    const text = textAt(i)
    const ids = idsOf(text)
    texts.push(text)
    perDoc.push(ids)
    entries += ids.length
    // Sorted: the last is the largest.
    if (ids.length > 0) top = Math.max(top, ids[ids.length - 1] as number)
  }
  // The numbering restarted while reading (past its bound), or the lists would be too large.
  if (generation !== wordGeneration() || entries > maxEntries || docs.length > maxPositions) {
    byLeft.set(leftKey, null)
    return undefined
  }
  const counts = new Int32Array(top + 1)
  for (const ids of perDoc) for (const id of ids) counts[id] = (counts[id] as number) + 1
  const lists = new Map<number, Int32Array>()
  const byId: Int32Array[] = []
  for (const [id, count] of counts.entries())
    if (count > 0) {
      const list = new Int32Array(count)
      lists.set(id, list)
      byId[id] = list
    }
  // Reused as each list's fill level.
  counts.fill(0)
  const tally = new Int32Array(top + 1)
  for (const [position, ids] of perDoc.entries()) {
    tallyWords((texts[position] as FoldedText).words, tally)
    for (const id of ids) {
      const at = counts[id] as number
      ;(byId[id] as Int32Array)[at] = entryOf(position, tally[id] as number)
      tally[id] = 0
      counts[id] = at + 1
    }
  }
  return keep(byLeft, leftKey, {lists, docs, perDoc, generation, entries})
}

function keep(byLeft: Map<string, Postings | null>, leftKey: string, postings: Postings): Postings {
  byLeft.set(leftKey, postings)
  const list = [postings, ...(recent.get(leftKey) ?? [])].slice(0, maxRecent)
  recent.set(leftKey, list)
  // Bounded: paths are the few a site and a Studio search (internedKey's bound applies too).
  for (const oldest of recent.keys()) {
    if (recent.size <= 64) break
    recent.delete(oldest)
  }
  return postings
}

/**
 * `docs`'s postings from a recent view's, when `docs` holds the same document objects at the same
 * positions except at most `maxPatched` (replaced in place or appended): each changed position is
 * taken out of its old words' lists and put into its new words' lists (copies; the lists the old
 * view holds stay as they are). Undefined when no recent view is that close.
 */
function derive(
  docs: Doc[],
  generation: number,
  textAt: (position: number) => FoldedText,
  candidates: Postings[],
): Postings | undefined {
  for (const old of candidates) {
    if (old.generation !== generation || old.docs.length > docs.length) continue
    if (docs.length > maxPositions) return undefined
    const changed: number[] = []
    for (let i = 0; i < docs.length && changed.length <= maxPatched; i++)
      if (old.docs[i] !== docs[i]) changed.push(i)
    if (changed.length > maxPatched) continue
    const perDoc = old.perDoc.slice()
    const removed = new Map<number, Set<number>>()
    /** Per word, the entries of the changed positions that hold it. */
    const added = new Map<number, Map<number, number>>()
    let entries = old.entries
    for (const position of changed) {
      const before = old.perDoc[position]
      const text = textAt(position)
      const after = idsOf(text)
      if (generation !== wordGeneration()) return undefined
      perDoc[position] = after
      entries += after.length - (before?.length ?? 0)
      for (const id of before ?? []) {
        const set = removed.get(id) ?? new Set<number>()
        removed.set(id, set.add(position))
      }
      const frequencies = new Map<number, number>()
      for (let i = 0; i < text.words.length; i++) {
        const id = text.words[i] as number
        if (id >= 0) frequencies.set(id, (frequencies.get(id) ?? 0) + 1)
      }
      for (const id of after) {
        const byPosition = added.get(id) ?? new Map<number, number>()
        byPosition.set(position, entryOf(position, frequencies.get(id) ?? 0))
        added.set(id, byPosition)
      }
    }
    if (entries > maxEntries) return undefined
    const lists = new Map(old.lists)
    for (const id of new Set([...removed.keys(), ...added.keys()])) {
      const merged = patched(old.lists.get(id) ?? empty, removed.get(id), added.get(id))
      if (merged.length > 0) lists.set(id, merged)
      else lists.delete(id)
    }
    return {lists, docs, perDoc, generation, entries}
  }
  return undefined
}

/**
 * An ascending list without `gone`'s positions and with `added`'s entries (by position, none in
 * it). The few changed positions are found by bisection and the runs between them copied whole:
 * a word in every post is not walked element by element.
 */
function patched(
  list: Int32Array,
  gone: Set<number> | undefined,
  added: Map<number, number> | undefined,
): Int32Array {
  const events = [...new Set([...(gone ?? []), ...(added?.keys() ?? [])])].sort((a, b) => a - b)
  const out = new Int32Array(list.length + (added?.size ?? 0))
  let n = 0
  let at = 0
  for (const position of events) {
    let low = at
    let high = list.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (positionOf(list[middle] as number) < position) low = middle + 1
      else high = middle
    }
    out.set(list.subarray(at, low), n)
    n += low - at
    at = low
    // The position's old entry goes; it comes back if its new words hold this one.
    if (at < list.length && positionOf(list[at] as number) === position) at++
    const entry = added?.get(position)
    if (entry !== undefined) out[n++] = entry
  }
  out.set(list.subarray(at), n)
  n += list.length - at
  return out.slice(0, n)
}

function isWord(clause: TextClause): boolean {
  return clause.words.length === 1 && !clause.prefix
}

function listOf(postings: Postings, clause: TextClause): Int32Array {
  const id = wordIdOf(clause.words[0] ?? '')
  return id === undefined ? empty : (postings.lists.get(id) ?? empty)
}

/** Keeps the positions (ascending) that `list`'s entries hold, or, `keep` false, lack; in place. */
function narrow(positions: Int32Array, list: Int32Array, keep: boolean): Int32Array {
  let n = 0
  let j = 0
  for (let i = 0; i < positions.length; i++) {
    const value = positions[i] as number
    while (j < list.length && positionOf(list[j] as number) < value) j++
    const holds = j < list.length && positionOf(list[j] as number) === value
    if (holds === keep) positions[n++] = value
  }
  return positions.subarray(0, n)
}

/**
 * What the postings decide of a query over a view of `size` documents: `exact` when every clause
 * is one whole word (then `positions` are exactly the matches); otherwise `positions` are the
 * documents holding every positive whole word, candidates the caller checks one by one, or
 * undefined when no clause narrows them. `packed`: `positions` is a posting list itself (its
 * entries, read with `positionOf`), when one word decides; else the query's own (`scratch`).
 */
export function postingsMatch(
  postings: Postings,
  clauses: TextClause[],
  scratch: ScratchArrays,
): {positions: Int32Array; packed: boolean; exact: boolean} | undefined {
  const positives = clauses
    .filter((clause) => !clause.negated && isWord(clause))
    .map((clause) => listOf(postings, clause))
    .sort((a, b) => a.length - b.length)
  const first = positives[0]
  if (first === undefined) return undefined
  const exact = clauses.every(isWord)
  // A negated word no document holds (the bench's `-zq…`) excludes nothing.
  const excluded = exact
    ? clauses
        .filter((clause) => clause.negated)
        .map((clause) => listOf(postings, clause))
        .filter((list) => list.length > 0)
    : []
  if (positives.length === 1 && excluded.length === 0)
    return {positions: first, packed: true, exact}
  let positions = scratch.int32(first.length)
  for (let i = 0; i < first.length; i++) positions[i] = positionOf(first[i] as number)
  for (let k = 1; k < positives.length; k++)
    positions = narrow(positions, positives[k] as Int32Array, true)
  for (const list of excluded) if (positions.length > 0) positions = narrow(positions, list, false)
  return {positions, packed: false, exact}
}

/** Word `id`'s entries (ascending positions, each with its frequency: `positionOf`, `frequencyOf`). */
export function entriesOf(postings: Postings, id: number): Int32Array {
  return postings.lists.get(id) ?? empty
}
