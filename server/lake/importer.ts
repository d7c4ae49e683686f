import {createReadStream} from 'node:fs'
import {createInterface} from 'node:readline'
import {badRequest, LakeError} from './errors.ts'
import type {Lake} from './lake.ts'
import {newTransactionId} from './writes/mutations.ts'
import {isDoc, type Doc} from './types.ts'
import {messageOf} from '../util/messageOf.ts'

/** What to do with a document whose id already exists (the `sanity dataset import` flags). */
export type ImportMode = 'fail' | 'replace' | 'missing'

function parseLine(line: string, number: number): Doc {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    throw badRequest(`Line ${number} is not valid JSON: ${messageOf(error)}`)
  }
  if (!isDoc(value) || value._id === '')
    throw badRequest(`Line ${number} is not a document (needs string _id and _type)`)
  return value
}

/** Parses NDJSON in `sanity dataset export` format: one document per line. */
export function parseNdjson(text: string): Doc[] {
  const docs: Doc[] = []
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    docs.push(parseLine(line, index + 1))
  }
  return docs
}

/**
 * Imports documents as they are, system fields included (`_rev`, `_createdAt`, `_updatedAt`),
 * so an export → import round trip gives back identical documents. Existing ids are replaced
 * (or left alone with mode 'missing'). Commits in batches; each batch is one durable transaction.
 */
export function importDocuments(
  lake: Lake,
  docs: Doc[],
  options: {
    batchSize?: number
    mode?: 'replace' | 'missing'
    onProgress?: (done: number, total: number) => void
  } = {},
): {transactions: number; skipped: number} {
  const batchSize = options.batchSize ?? 500
  let transactions = 0
  let skipped = 0
  for (let start = 0; start < docs.length; start += batchSize) {
    const batch = docs.slice(start, start + batchSize).filter((doc) => {
      const keep = options.mode !== 'missing' || !lake.getDocument(doc._id)
      if (!keep) skipped++
      return keep
    })
    if (batch.length > 0) {
      const id = newTransactionId()
      const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
      lake.commitRaw({
        id,
        timestamp,
        author: 'p-owner',
        changes: batch.map((doc) => {
          const after: Doc = {
            ...doc,
            _rev: doc._rev ?? id,
            _createdAt: doc._createdAt ?? timestamp,
            _updatedAt: doc._updatedAt ?? timestamp,
          }
          return {
            id: doc._id,
            before: lake.getDocument(doc._id) ?? null,
            after,
            mutations: [{createOrReplace: doc}],
          }
        }),
      })
      transactions++
    }
    options.onProgress?.(Math.min(start + batchSize, docs.length), docs.length)
  }
  return {transactions, skipped}
}

async function* fileDocs(file: string): AsyncGenerator<Doc> {
  const lines = createInterface({
    input: createReadStream(file, {encoding: 'utf8'}),
    crlfDelay: Infinity,
  })
  let number = 0
  for await (const line of lines) {
    number++
    if (line.trim() !== '') yield parseLine(line, number)
  }
}

/**
 * Imports an NDJSON file without holding it in memory. A first pass checks every line (and,
 * in mode 'fail', that no id exists yet) so a bad file changes nothing; the second pass commits
 * in batches and reports progress every `progressEvery` documents.
 */
export async function importFile(
  lake: Lake,
  file: string,
  options: {
    mode?: ImportMode
    batchSize?: number
    progressEvery?: number
    onProgress?: (done: number, total: number) => void
  } = {},
): Promise<{documents: number; transactions: number; skipped: number}> {
  const mode = options.mode ?? 'fail'
  const seen = new Set<string>()
  const existing: string[] = []
  for await (const doc of fileDocs(file)) {
    if (seen.has(doc._id))
      throw badRequest(`Document id "${doc._id}" appears more than once in ${file}`)
    seen.add(doc._id)
    if (mode === 'fail' && lake.getDocument(doc._id)) existing.push(doc._id)
  }
  if (existing.length > 0) {
    const sample = existing
      .slice(0, 5)
      .map((id) => `"${id}"`)
      .join(', ')
    throw new LakeError(
      409,
      'documentAlreadyExistsError',
      `${existing.length} document(s) already exist (${sample}${existing.length > 5 ? ', …' : ''}); use --replace to overwrite them or --missing to skip them`,
    )
  }
  const total = seen.size
  const batchSize = options.batchSize ?? 500
  const every = options.progressEvery ?? 1000
  let done = 0
  let transactions = 0
  let skipped = 0
  let batch: Doc[] = []
  const flush = () => {
    const result = importDocuments(lake, batch, {
      batchSize,
      mode: mode === 'missing' ? 'missing' : 'replace',
    })
    transactions += result.transactions
    skipped += result.skipped
    const before = done
    done += batch.length
    batch = []
    if (Math.floor(done / every) > Math.floor(before / every) || done === total)
      options.onProgress?.(done, total)
  }
  for await (const doc of fileDocs(file)) {
    batch.push(doc)
    if (batch.length >= batchSize) flush()
  }
  if (batch.length > 0) flush()
  return {documents: total, transactions, skipped}
}
