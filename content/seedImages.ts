import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {defaultDataset, localProjectId} from '../shared/constants.ts'
import {AssetStore, imageAssetDocument, type Doc} from '../server/lake/index.ts'
import {stableKey} from './richText.ts'

/** Where the seed's image files live (rendered by scripts/seedArt.ts). */
export const seedImagesDir = fileURLToPath(new URL('./images/', import.meta.url))

/**
 * The site address the seed's asset documents were exported from (the default SITE_URL);
 * server/lake/seed.ts rewrites `url` to the running site's address when it seeds.
 */
export const seedSiteUrl = 'http://localhost:3000'

/** An image in a post as authored: a file of content/images/ and the fields of the schema. */
export interface ImageSource {
  file: string
  alt?: string
  decorative?: boolean
  caption?: string
  /** The Studio's hotspot: centre and size as fractions of the upright image. */
  hotspot?: {x: number; y: number; width: number; height: number}
  /** The Studio's crop: fractions cut from each side. */
  crop?: {top: number; bottom: number; left: number; right: number}
}

/** An image block in a post's body, as authored. */
export interface ImageBlockSource extends ImageSource {
  kind: 'image'
}

export const figure = (source: ImageSource): ImageBlockSource => ({kind: 'image', ...source})

/** The image value the Studio writes into a post (`mainImage`, or a body block with `_key`). */
export interface ImageValue {
  _type: 'image'
  _key?: string
  asset: {_type: 'reference'; _ref: string}
  alt?: string
  decorative?: boolean
  caption?: string
  hotspot?: {_type: 'sanity.imageHotspot'; x: number; y: number; width: number; height: number}
  crop?: {_type: 'sanity.imageCrop'; top: number; bottom: number; left: number; right: number}
}

export function toImageValue(source: ImageSource, assetId: string, keySeed?: string): ImageValue {
  return {
    _type: 'image',
    ...(keySeed ? {_key: stableKey(keySeed)} : {}),
    asset: {_type: 'reference', _ref: assetId},
    ...(source.alt !== undefined ? {alt: source.alt} : {}),
    ...(source.decorative ? {decorative: true} : {}),
    ...(source.caption !== undefined ? {caption: source.caption} : {}),
    ...(source.crop ? {crop: {_type: 'sanity.imageCrop', ...source.crop}} : {}),
    ...(source.hotspot ? {hotspot: {_type: 'sanity.imageHotspot', ...source.hotspot}} : {}),
  }
}

/**
 * The `sanity.imageAsset` documents of `files`, as the lake's own upload writes them
 * (server/lake/assets/upload.ts), so the seed holds what an export of the lake would. The
 * files are stored in a scratch directory and it is removed again.
 */
export async function seedAssetDocuments(
  files: string[],
  timestamp: string,
): Promise<Map<string, Doc>> {
  const scratch = mkdtempSync(join(tmpdir(), 'seed-assets-'))
  try {
    const store = new AssetStore(scratch)
    const documents = new Map<string, Doc>()
    for (const file of [...new Set(files)].sort()) {
      const image = await store.storeImage(readFileSync(join(seedImagesDir, file)))
      const project = {projectId: localProjectId, dataset: defaultDataset}
      const doc = imageAssetDocument(image, project, seedSiteUrl, {filename: file})
      const rev = stableKey(`${doc._id}/rev`) + stableKey(`${doc._id}/rev2`).slice(0, 10)
      documents.set(file, {
        ...doc,
        _rev: rev,
        _createdAt: timestamp,
        _updatedAt: timestamp,
      })
    }
    return documents
  } finally {
    rmSync(scratch, {recursive: true, force: true})
  }
}
