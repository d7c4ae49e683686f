import {createHash} from 'node:crypto'
import {existsSync, readdirSync} from 'node:fs'
import {stat} from 'node:fs/promises'
import {join} from 'node:path'
import sharp from 'sharp'
import {storageError} from '../files/diskFull.ts'
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

export interface StoredImage {
  sha1: string
  width: number
  height: number
  extension: string
  mimeType: string
  size: number
  fileName: string
  hasAlpha: boolean
  /** A tiny blurred JPEG data URL, Sanity's `metadata.lqip`. */
  lqip: string
  /** This call wrote the file (it was not stored before): `discard` undoes that. */
  created: boolean
}

/** The upload is not an image we can store: a 400, unlike a failure to write it. */
export class UnsupportedImageError extends Error {}

/**
 * Image files of the lake, in DATA_DIR/assets/images (0700, files 0600), named by content hash
 * and size so a second upload of the same bytes is the same asset. Written durably
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
   * Reads an image's facts and stores the bytes; throws `UnsupportedImageError` if it is not a
   * supported image, the 507 LakeError if the disk is full.
   */
  async storeImage(bytes: Buffer): Promise<StoredImage> {
    let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>
    try {
      meta = await sharp(bytes).metadata()
    } catch {
      throw new UnsupportedImageError('The upload is not an image sharp can read')
    }
    const extension = meta.format ? extensions[meta.format] : undefined
    if (!extension || !meta.width || !meta.height) {
      throw new UnsupportedImageError(
        `Unsupported image format "${meta.format ?? 'unknown'}"; use ${Object.keys(extensions).join(', ')}`,
      )
    }
    const lqip = await sharp(bytes).resize(20, 20, {fit: 'inside'}).jpeg({quality: 40}).toBuffer()
    const sha1 = createHash('sha1').update(bytes).digest('hex')
    const fileName = `${sha1}-${meta.width}x${meta.height}.${extension}`
    const file = join(this.dir, fileName)
    const created = !existsSync(file)
    if (created) {
      try {
        await writeFileDurably(file, bytes, privateFileMode)
      } catch (error) {
        throw storageError(error)
      }
    }
    return {
      sha1,
      width: meta.width,
      height: meta.height,
      extension,
      mimeType: mimeTypes[extension],
      size: bytes.length,
      fileName,
      hasAlpha: meta.hasAlpha ?? false,
      lqip: `data:image/jpeg;base64,${lqip.toString('base64')}`,
      created,
    }
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
