import {badRequest} from './errors.ts'
import type {Lake} from './lake.ts'
import {newTransactionId} from './mutations.ts'
import {isDoc, type Doc} from './types.ts'

/** Parses NDJSON in `sanity dataset export` format: one document per line. */
export function parseNdjson(text: string): Doc[] {
  const docs: Doc[] = []
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw badRequest(`Line ${index + 1} is not valid JSON: ${(error as Error).message}`)
    }
    if (!isDoc(value)) throw badRequest(`Line ${index + 1} is not a document (needs string _id and _type)`)
    docs.push(value)
  }
  return docs
}

/**
 * Imports documents as they are, system fields included (`_rev`, `_createdAt`, `_updatedAt`),
 * so an export → import round trip gives back identical documents. Existing ids are replaced.
 * Commits in batches; each batch is one durable transaction.
 */
export function importDocuments(
  lake: Lake,
  docs: Doc[],
  options: {batchSize?: number; onProgress?: (done: number, total: number) => void} = {},
): {transactions: number} {
  const batchSize = options.batchSize ?? 500
  let transactions = 0
  for (let start = 0; start < docs.length; start += batchSize) {
    const batch = docs.slice(start, start + batchSize)
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
        return {id: doc._id, before: lake.getDocument(doc._id) ?? null, after, mutations: [{createOrReplace: doc}]}
      }),
    })
    transactions++
    options.onProgress?.(Math.min(start + batchSize, docs.length), docs.length)
  }
  return {transactions}
}
