import type {Lake} from '../lake.ts'
import {imageFilePattern} from './assetStore.ts'
import {
  boundedParams,
  cheapFormat,
  outputSizeOf,
  variantKey,
  type ImageFormat,
  type ImageParams,
} from './imageParams.ts'
import type {SourceSizes} from './sourceSizes.ts'

/** An uploaded image file an `/images/…` path names: its stored name and extension. */
export interface ImageFile {
  name: string
  ext: string
}

/** The asset file an `/images/{projectId}/{dataset}/{file}[/{vanity}]` path names, if ours. */
export function fileOf(
  lake: Lake,
  projectId?: string,
  dataset?: string,
  file?: string,
): ImageFile | undefined {
  const match = imageFilePattern.exec(file ?? '')
  if (projectId !== lake.projectId || dataset !== lake.dataset || !match) return undefined
  return {name: match[0], ext: match[4]}
}

/**
 * One variant as a reader's request and pre-rendering both resolve it: the transform, bounded
 * to the source (imageParams.ts), its output format, its cache key and its output pixels (what
 * the cold budget counts).
 */
export interface VariantPlan {
  file: string
  path: string
  params: ImageParams
  format: ImageFormat
  key: string
  pixels: number
}

/** Plans the variant `params` ask of `file` (stored at `path`); throws on parameters out of bounds. */
export async function planVariant(
  sizes: SourceSizes,
  file: ImageFile,
  path: string,
  params: ImageParams,
): Promise<VariantPlan> {
  const size = await sizes.of(file.name, path)
  const bounded = boundedParams(params, size)
  const format = cheapFormat(bounded, size) ?? sourceFormat(file.ext)
  const out = outputSizeOf(bounded, size)
  return {
    file: file.name,
    path,
    params: bounded,
    format,
    key: variantKey(file.name, bounded, format),
    pixels: Math.round(out.width) * Math.round(out.height),
  }
}

/** The format of a variant that asks for none: the source's own (PNG for anything else). */
const sourceFormat = (ext: string): ImageFormat =>
  ext === 'jpg' ? 'jpg' : ext === 'webp' ? 'webp' : 'png'
