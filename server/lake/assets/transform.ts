import sharp, {type Sharp} from 'sharp'
import {
  outputSizeOf,
  sharpFit,
  type CropMode,
  type ImageFormat,
  type ImageParams,
} from './imageParams.ts'
import {maxOutputPixels} from './imageParams.ts'

// One transform at a time (transformQueue.ts) must also mean one core: libvips otherwise runs
// a thread per core, taking the second core from pages and queries. Its operation cache is kept
// small: variants are cached by us (variantCache.ts), in bytes we count.
sharp.concurrency(1)
sharp.cache({memory: 16, files: 0, items: 20})

export const outputMime = {
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
} as const satisfies Record<ImageFormat, string>

/**
 * A backstop for one transform (sharp's own timeout): the output caps keep honest ones far
 * under a second, so anything near this is a pathological source.
 */
const transformTimeoutSeconds = 10

/**
 * Encoder effort. WebP's default (4) spends a third more time than 2 for 3 % fewer bytes; AVIF
 * at 0 (libaom's fastest speed) encodes an 800-px image in about the time WebP at 4 does, and
 * each step up roughly doubles it (docs/images.md, "AVIF").
 */
const webpEffort = 2
const avifEffort = 0
/**
 * AVIF's quality scale is not WebP's or JPEG's: at `q` × 2/3 (75 → 50, sharp's own default) it
 * looks as a WebP at `q` does and is smaller for a photo.
 */
const avifQuality = (quality: number) => Math.max(1, Math.round((quality * 2) / 3))

/** Where `fit=crop` takes its region from, for Sanity's `crop` modes (focalpoint is a rect). */
const cropPositions: Record<CropMode, string | number> = {
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
  center: 'centre',
  focalpoint: 'centre',
  entropy: sharp.strategy.entropy,
}

type Size = {width: number; height: number}

/**
 * The largest scaled whole `scaledRect` holds (raw, 3–4 bytes a pixel: at most 64 MB). Four
 * outputs' worth: a crop of a third of a 100 MP photo shown 1280 px wide scales the whole to
 * about 4.6 MP, just over one output, and cutting first instead decoded and turned all 100 MP
 * (417 MB peak RSS and 7.4 s, against 151 MB and 2.4–5.5 s this way; docs/images.md).
 */
const maxScaledWholePixels = 4 * maxOutputPixels

const source = (path: string) =>
  // sequentialRead: libvips streams the file top to bottom instead of holding it whole.
  sharp(path, {animated: false, sequentialRead: true}).timeout({seconds: transformTimeoutSeconds})

/**
 * A `rect` that is only scaled down to the output (what @sanity/image-url asks for a crop or a
 * hotspot: the rect has the output's shape), done as resize-then-cut: the whole upright image is
 * scaled first, where a JPEG decodes at 1/2, 1/4 or 1/8 scale (shrink-on-load), and the scaled
 * rect is cut from it. Cutting first, as sharp does for `extract` before `resize`, decodes every
 * pixel, and for an EXIF-rotated photo also turns the whole 12 MP image: 4× slower here. Undefined
 * when the rect is not a pure downscale, or the scaled whole would be over the output cap.
 */
async function scaledRect(
  path: string,
  params: ImageParams,
  upright: Size,
): Promise<Sharp | undefined> {
  const rect = params.rect
  if (!rect || (params.width === undefined && params.height === undefined)) return undefined
  const out = outputSizeOf(params, upright)
  const width = Math.round(out.width)
  const height = Math.round(out.height)
  const scale = out.width / rect.width
  const pure =
    Math.abs(rect.height * scale - out.height) < 1 && Math.abs(rect.width * scale - out.width) < 1
  const whole = {
    width: Math.round(upright.width * scale),
    height: Math.round(upright.height * scale),
  }
  if (!pure || scale > 0.75 || whole.width * whole.height > maxScaledWholePixels) return undefined
  const {data, info} = await source(path)
    .rotate()
    .resize({...whole, fit: 'fill'})
    .raw({depth: 'uchar'})
    .toBuffer({resolveWithObject: true})
  const left = Math.min(Math.round(rect.left * scale), info.width - width)
  const top = Math.min(Math.round(rect.top * scale), info.height - height)
  return sharp(data, {raw: {width: info.width, height: info.height, channels: info.channels}})
    .timeout({seconds: transformTimeoutSeconds})
    .extract({left: Math.max(0, left), top: Math.max(0, top), width, height})
}

/**
 * One variant, from the source file (sharp reads it itself, in its thread pool: no 25 MB buffer
 * per request). The source is turned upright first (EXIF orientation), so `rect` and every size
 * are in the same upright space as the asset's recorded dimensions (assetStore.ts); `upright` is
 * that size.
 */
export async function transform(
  path: string,
  params: ImageParams,
  format: ImageFormat,
  upright: Size,
): Promise<{bytes: Buffer; type: string}> {
  let image = await scaledRect(path, params, upright)
  if (!image) {
    image = source(path).rotate()
    if (params.rect) image = image.extract(params.rect)
    if (params.width || params.height) {
      const {fit, withoutEnlargement} = sharpFit[params.fit]
      image = image.resize({
        width: params.width,
        height: params.height,
        fit,
        withoutEnlargement,
        position: cropPositions[params.crop ?? 'center'],
        background: {r: 255, g: 255, b: 255, alpha: 0},
      })
    }
  }
  if (format === 'jpg' || format === 'pjpg')
    image = image
      .flatten({background: '#ffffff'})
      .jpeg({quality: params.quality, progressive: format === 'pjpg'})
  else if (format === 'webp') image = image.webp({quality: params.quality, effort: webpEffort})
  else if (format === 'avif')
    image = image.avif({quality: avifQuality(params.quality), effort: avifEffort})
  else image = image.png()
  return {bytes: await image.toBuffer(), type: outputMime[format]}
}
