import {evaluate, evaluateSync, GroqSyntaxError, parse, type ExprNode} from 'groq-js'
import {LakeError, queryParseError} from './errors.ts'
import type {Doc} from './types.ts'
import {messageOf} from '../util/messageOf.ts'
import {isRecord} from '../util/isRecord.ts'
import {rewriteTextQueries} from './textQuery/rewriteTextQuery.ts'
import {ScratchArrays} from './textQuery/scratchArrays.ts'
import type {TextCandidates} from './textQuery/textIndexReader.ts'

const parseCache = new Map<string, ExprNode>()

/**
 * Parses GROQ with a small cache; a syntax error becomes Sanity's 400 queryParseError.
 * groq-js folds parameter values into the tree at parse time, so the key holds the values.
 */
export function parseQuery(query: string, params: Record<string, unknown>): ExprNode {
  const key = `${query}\u0000${JSON.stringify(params)}`
  const cached = parseCache.get(key)
  if (cached) return cached
  try {
    const tree = parse(query, {params})
    const missing = unprovidedParam(tree)
    if (missing !== undefined) {
      const at = query.indexOf(`$${missing}`)
      throw queryParseError(
        `param $${missing} referenced, but not provided`,
        query,
        Math.max(at, 0),
        at < 0 ? query.length : at + missing.length + 1,
      )
    }
    if (parseCache.size > 500) parseCache.clear()
    // Huge queries or params (up to a 1 MB POST) would pin memory for little gain.
    if (key.length <= 16_384) parseCache.set(key, tree)
    return tree
  } catch (error) {
    if (error instanceof LakeError) throw error
    if (error instanceof GroqSyntaxError) {
      const position = (error as GroqSyntaxError & {position?: number}).position
      throw queryParseError(
        error.message,
        query,
        position,
        position === undefined ? undefined : position + 1,
      )
    }
    // groq-js's semantic parse errors (unknown function, wrong arity) carry no position: point at
    // the whole query, so clients still get Sanity's shape with start/end and draw a code frame.
    const message = messageOf(error)
    throw queryParseError(message, query, 0, query.length)
  }
}

/**
 * groq-js folds provided params into the tree, so a `Parameter` node left over was never given.
 * Sanity refuses such a query (a GROQ test-suite case); groq-js would quietly answer null.
 * `$identity` is the legacy built-in (GROQ 0.1), left to evaluate as groq-js does.
 */
function unprovidedParam(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = unprovidedParam(item)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (!isRecord(node)) return undefined
  const record = node
  if (record.type === 'Parameter' && typeof record.name === 'string' && record.name !== 'identity')
    return record.name
  for (const value of Object.values(record)) {
    const found = unprovidedParam(value)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Evaluates a parsed query over `docs` to its JSON text, refusing results over `maxResultBytes`.
 * No time limit here: it runs in the query worker, which is terminated when it overruns.
 */
export async function evaluateJson(
  tree: ExprNode,
  docs: Doc[],
  params: Record<string, unknown>,
  options: {
    maxResultBytes: number
    sanity?: {projectId: string; dataset: string}
    /** Narrows `text::query()` to the index's candidates (the query worker's reader). */
    textIndex?: TextCandidates
  },
): Promise<string> {
  let value: unknown
  // The search's arrays, given back once the answer is made (textQuery/scratchArrays.ts).
  const scratch = new ScratchArrays()
  let json: string
  try {
    const context = {dataset: docs, params, sanity: options.sanity}
    if (hasTextQuery(tree)) {
      const rewritten = rewriteTextQueries(tree, docs, context, options.textIndex, scratch)
      const {dereference} = rewritten
      value = await evaluated(rewritten.tree, {...context, dereference})
    } else value = await evaluated(tree, context)
    json = JSON.stringify(value ?? null)
  } catch (error) {
    if (error instanceof LakeError) throw error
    // groq-js throws plain errors for unsupported functions and bad arguments at runtime.
    throw new LakeError(400, 'queryError', messageOf(error))
  } finally {
    scratch.release()
  }
  if (json.length > options.maxResultBytes) {
    throw new LakeError(
      400,
      'queryResultTooLarge',
      `Query result is larger than ${options.maxResultBytes} bytes; add a slice or a projection`,
    )
  }
  return json
}

type EvaluateOptions = Parameters<typeof evaluate>[1]

/**
 * groq-js's value of `tree`: its synchronous evaluation first, the same executors without a
 * promise per node (the search's page of 6 cards: ~0.3 ms instead of ~2 ms, each card's word count
 * evaluating every word of its body), else its asynchronous one. The few things only the latter
 * does (`diff::`/`delta::` functions, a stream) make the former throw or answer a stream; then,
 * and on any error, the query is evaluated again asynchronously, which gives the answer or the
 * error as before. The GROQ suite compares every answer with groq-js's `evaluate` (bench/groqSuite.ts).
 */
async function evaluated(tree: ExprNode, options: EvaluateOptions): Promise<unknown> {
  try {
    const value = evaluateSync(tree, options)
    if (value.type !== 'stream') return value.data
  } catch {
    // Evaluated asynchronously below, which throws the error that counts.
  }
  return (await evaluate(tree, options)).get()
}

/** Whether the tree calls `text::query()` anywhere (most queries do not, and skip the rewrite). */
function hasTextQuery(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasTextQuery)
  // A Value holds a folded param, possibly large: it is data, never a call.
  if (!isRecord(node) || node.type === 'Value') return false
  if (node.type === 'FuncCall' && node.namespace === 'text' && node.name === 'query') return true
  return Object.values(node).some(hasTextQuery)
}
