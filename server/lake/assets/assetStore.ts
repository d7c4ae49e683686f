import {createHash} from 'node:crypto'
import {existsSync, readdirSync} from 'node:fs'
import {stat} from 'node:fs/promises'
import {join} from 'node:path'
import sharp from 'sharp'
import {storageError} from '../files/diskFull.ts'
import {svgRefusal} from './svgSafety.ts'
import {readPixels, type PixelFacts} from './pixelFacts.ts'
import {
  ensurePrivateDir,
  privateFileMode,
  removeIfPresent,
  removeStaleTemps,
  tightenMode,
  writeFileDurably,
} from '../../util/durableFile.ts'

/** Image formats accepted for upload, by sharp's format name → Sanity's file extension. */
const extensions: Record<string, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
  tiff: 'tif',
  svg: 'svg',
}
export const mimeTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tif: 'image/tiff',
  svg: 'image/svg+xml',
}

/** `{sha1}-{w}x{h}.{ext}`: the file name in the data dir and in the image URL. */
export const imageFilePattern =
  /^([0-9a-f]{40})-(\d{1,5})x(\d{1,5})\.(jpg|png|webp|gif|avif|tif|svg)$/

/** One of Sanity's palette swatches (`metadata.palette.dominant`). */
export interface PaletteSwatch {
  _type: 'sanity.imagePaletteSwatch'
  background: string
  foreground: string
  population: number
  title: string
}

/** What an upload's pixels say about it, all in the upright (EXIF-oriented) space. */
export interface ImageFacts {
  sha1: string
  /** Upright: a phone's portrait photo stored sideways with EXIF orientation 6 is tall. */
  width: number
  height: number
  extension: string
  mimeType: string
  hasAlpha: boolean
  /** Every pixel fully opaque (Sanity's `isOpaque`), read from the pixels, not the format. */
  isOpaque: boolean
  /** A tiny blurred upright data URL, Sanity's `metadata.lqip`: PNG where there is alpha. */
  lqip: string
  dominant: PaletteSwatch
}

export interface StoredImage extends ImageFacts {
  size: number
  fileName: string
  /** This call wrote the file (it was not stored before): `discard` undoes that. */
  created: boolean
}

/** The upload is not an image we can store: a 400, unlike a failure to write it. */
export class UnsupportedImageError extends Error {}

/**
 * Largest upload in pixels: 200 megapixels, a phone's high-resolution mode (48–200 MP; issue
 * 35 §4). It is never decoded whole: an upload is read streaming to a 512-px copy, a JPEG
 * decoded straight at 1/8 scale (pixelFacts.ts), and transforms shrink on load (transform.ts),
 * so a 100 MP photo costs less memory than a 40 MP one did before. A small file declaring
 * 50,000 × 50,000 (a decompression bomb) is refused from its header, before any decoding.
 */
export const maxInputPixels = 200_000_000

/** The type a client declares for its upload, when it names one of ours, must be the bytes' type. */
const declaredTypes: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tif',
  'image/svg+xml': 'svg',
}

const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0')

/** The dominant colour as a swatch, with black or white text on it, whichever reads better. */
function swatch(colour: {r: number; g: number; b: number}): PaletteSwatch {
  const luminance = (0.2126 * colour.r + 0.7152 * colour.g + 0.0722 * colour.b) / 255
  return {
    _type: 'sanity.imagePaletteSwatch',
    background: `#${hex(colour.r)}${hex(colour.g)}${hex(colour.b)}`,
    foreground: luminance > 0.5 ? '#000' : '#fff',
    // sharp gives the colour, not its share of the pixels; Sanity's number is a count.
    population: 0,
    title: luminance > 0.5 ? '#000' : '#fff',
  }
}

/**
 * Reads and checks an upload: its format (against the `declared` content type, if one of
 * ours), its upright size within `maxInputPixels`, every pixel decodable (a truncated or
 * corrupt file is refused, not stored), SVG without script. Throws `UnsupportedImageError`.
 */
export async function describeImage(bytes: Buffer, declared?: string): Promise<ImageFacts> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>
  try {
    meta = await sharp(bytes, {limitInputPixels: false}).metadata()
  } catch {
    throw new UnsupportedImageError('The upload is not an image sharp can read')
  }
  const extension = meta.format ? extensions[meta.format] : undefined
  if (!extension || !meta.width || !meta.height) {
    throw new UnsupportedImageError(
      `Unsupported image format "${meta.format ?? 'unknown'}"; use ${Object.keys(extensions).join(', ')}`,
    )
  }
  const expected = declared ? declaredTypes[declared.split(';')[0].trim().toLowerCase()] : undefined
  if (expected && expected !== extension)
    throw new UnsupportedImageError(
      `The upload says it is ${declared} but its bytes are ${mimeTypes[extension]}`,
    )
  if (meta.width * meta.height > maxInputPixels)
    throw new UnsupportedImageError(
      `The image is ${meta.width} × ${meta.height} pixels; at most ${maxInputPixels / 1e6} megapixels are accepted`,
    )
  const svgProblem = extension === 'svg' ? svgRefusal(bytes) : undefined
  if (svgProblem) throw new UnsupportedImageError(svgProblem)
  const upright = (meta.orientation ?? 1) >= 5
  const width = upright ? meta.height : meta.width
  const height = upright ? meta.width : meta.height
  const hasAlpha = meta.hasAlpha ?? false
  let pixels: PixelFacts
  try {
    pixels = await readPixels(bytes, hasAlpha)
  } catch {
    throw new UnsupportedImageError('The image is truncated or corrupt')
  }
  return {
    sha1: createHash('sha1').update(bytes).digest('hex'),
    width,
    height,
    extension,
    mimeType: mimeTypes[extension],
    hasAlpha,
    isOpaque: pixels.isOpaque,
    lqip: `data:image/${hasAlpha ? 'png' : 'jpeg'};base64,${pixels.lqip.toString('base64')}`,
    dominant: swatch(pixels.dominant),
  }
}

/**
 * Image files of the lake, in DATA_DIR/assets/images (0700, files 0600), named by content hash
 * and upright size so a second upload of the same bytes is the same asset. Written durably
 * (server/util/durableFile.ts); a full disk is the 507 LakeError and leaves no file behind.
 */
export class AssetStore {
  readonly dir: string

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'assets', 'images')
    ensurePrivateDir(join(dataDir, 'assets'))
    ensurePrivateDir(this.dir)
    removeStaleTemps(this.dir)
    // Files stored before modes were set: tightened once at start (a readdir and a stat each).
    for (const name of readdirSync(this.dir)) tightenMode(join(this.dir, name), privateFileMode)
  }

  /**
   * Checks an image (`describeImage`) and stores the bytes; throws `UnsupportedImageError` if it
   * is not one we accept, the 507 LakeError if the disk is full.
   */
  async storeImage(bytes: Buffer, declaredType?: string): Promise<StoredImage> {
    const facts = await describeImage(bytes, declaredType)
    const fileName = `${facts.sha1}-${facts.width}x${facts.height}.${facts.extension}`
    const file = join(this.dir, fileName)
    const created = !existsSync(file)
    if (created) {
      try {
        await writeFileDurably(file, bytes, privateFileMode)
      } catch (error) {
        throw storageError(error)
      }
    }
    return {...facts, size: bytes.length, fileName, created}
  }

  /** Removes a file `storeImage` just created, when its asset document could not be stored. */
  discard(image: StoredImage): void {
    if (image.created) removeIfPresent(join(this.dir, image.fileName))
  }

  /**
   * The path and size in bytes of `fileName` if it is a stored image (the name is checked against
   * `imageFilePattern` first, so no other file of the data dir can be named).
   */
  async locate(fileName: string): Promise<{path: string; size: number} | undefined> {
    if (!imageFilePattern.test(fileName)) return undefined
    const path = join(this.dir, fileName)
    try {
      const info = await stat(path)
      return info.isFile() ? {path, size: info.size} : undefined
    } catch {
      return undefined
    }
  }
}
