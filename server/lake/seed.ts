import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {importDocuments, parseNdjson} from './importer.ts'
import type {Lake} from './lake.ts'

export const seedFile = fileURLToPath(new URL('../../content/seed.ndjson', import.meta.url))

/** Fills an empty lake (no transaction ever committed) with the sample content. */
export async function seedIfEmpty(lake: Lake, file = seedFile): Promise<boolean> {
  if (lake.revision > 0) return false
  const docs = parseNdjson(readFileSync(file, 'utf8'))
  importDocuments(lake, docs)
  console.log(`[lake] seeded ${docs.length} documents from ${file}`)
  return true
}
