import {readFileSync} from 'node:fs'
import {basename, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {importDocuments, parseNdjson} from './importer.ts'
import type {Lake} from './lake.ts'
import {AssetStore} from './assets/assetStore.ts'
import type {Doc} from './types.ts'

export const seedFile = fileURLToPath(new URL('../../content/seed.ndjson', import.meta.url))

/** The seed's image files, named by each asset document's `originalFilename`. */
export const seedImagesDir = fileURLToPath(new URL('../../content/images/', import.meta.url))

export interface SeedOptions {
  /** The lake's data dir: the images go to its asset store. */
  dataDir: string
  file?: string
  imagesDir?: string
  /** The site's address: seeded asset documents' `url` points at it. */
  siteUrl?: string
}

const isImageAsset = (doc: Doc) => doc._type === 'sanity.imageAsset'

/**
 * Stores the file behind each seeded image asset in the lake's asset store, checking that it is
 * the very file the document names (same hash and size), and points its `url` at this site.
 */
async function storeSeedImages(docs: Doc[], options: SeedOptions) {
  const store = new AssetStore(options.dataDir)
  const imagesDir = options.imagesDir ?? seedImagesDir
  for (const doc of docs.filter(isImageAsset)) {
    const name = typeof doc.originalFilename === 'string' ? basename(doc.originalFilename) : ''
    const image = await store.storeImage(readFileSync(join(imagesDir, name)))
    if (typeof doc.path !== 'string' || basename(doc.path) !== image.fileName)
      throw new Error(`Seed image ${name} is not the file ${String(doc.path)} names`)
    if (options.siteUrl) doc.url = `${options.siteUrl}/${doc.path}`
  }
}

/** Fills an empty lake (no transaction ever committed) with the sample content and its images. */
export async function seedIfEmpty(lake: Lake, options: SeedOptions): Promise<boolean> {
  if (lake.revision > 0) return false
  const file = options.file ?? seedFile
  const docs = parseNdjson(readFileSync(file, 'utf8'))
  await storeSeedImages(docs, options)
  importDocuments(lake, docs)
  console.log(`[lake] seeded ${docs.length} documents from ${file}`)
  return true
}
