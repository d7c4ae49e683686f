import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import sharp from 'sharp'

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
}

/**
 * Image files of the lake, in DATA_DIR/assets/images, named by content hash and size so a
 * second upload of the same bytes is the same asset.
 */
export class AssetStore {
  readonly dir: string

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'assets', 'images')
  }

  /** Reads an image's facts and stores the bytes; throws `Error` if it is not a supported image. */
  async storeImage(bytes: Buffer): Promise<StoredImage> {
    let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>
    try {
      meta = await sharp(bytes).metadata()
    } catch {
      throw new Error('The upload is not an image sharp can read')
    }
    const extension = meta.format ? extensions[meta.format] : undefined
    if (!extension || !meta.width || !meta.height) {
      throw new Error(
        `Unsupported image format "${meta.format ?? 'unknown'}"; use ${Object.keys(extensions).join(', ')}`,
      )
    }
    const sha1 = createHash('sha1').update(bytes).digest('hex')
    const fileName = `${sha1}-${meta.width}x${meta.height}.${extension}`
    mkdirSync(this.dir, {recursive: true})
    const file = join(this.dir, fileName)
    if (!existsSync(file)) {
      writeFileSync(`${file}.tmp`, bytes)
      renameSync(`${file}.tmp`, file)
    }
    const lqip = await sharp(bytes).resize(20, 20, {fit: 'inside'}).jpeg({quality: 40}).toBuffer()
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
    }
  }

  /** The stored bytes of `fileName` (already matched against `imageFilePattern`), if present. */
  read(fileName: string): Buffer | undefined {
    if (!imageFilePattern.test(fileName)) return undefined
    const file = join(this.dir, fileName)
    return existsSync(file) ? readFileSync(file) : undefined
  }
}
