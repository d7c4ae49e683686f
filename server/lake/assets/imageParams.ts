/** Output formats of Sanity's image pipeline that we support (`fm`). */
const formats = ['jpg', 'pjpg', 'png', 'webp'] as const
/** What a transform may output: an `fm`, or AVIF, which only `auto=format` chooses. */
type Format = (typeof formats)[number] | 'avif'
const fits = ['clip', 'crop', 'fill', 'fillmax', 'max', 'scale', 'min'] as const
type Fit = (typeof fits)[number]
/** Sanity's `crop` modes: where `fit=crop` takes its region from. */
const crops = ['top', 'bottom', 'left', 'right', 'center', 'focalpoint', 'entropy'] as const
export type CropMode = (typeof crops)[number]

/**
 * Largest side of a transformed image. The site's widest column (about 800 CSS px) at dpr 3 and
 * the Studio's previews are under this,
 * and it bounds the work one request can ask for: `?w=8192&h=8192&dpr=3` once rendered a
 * 604-megapixel PNG for 22 s (it is now a 400: `maxRequestedSide`). Larger requests within
 * `maxRequestedSide` are clamped (aspect kept), not refused, as a CDN clamps: a srcset with a big
 * candidate still gets an image.
 */
export const maxOutputSide = 2560
/**
 * Largest transformed image in pixels, 2560 × 1600 (a 4:3 image comes out 2128 × 1596):
 * encoding time and memory are linear in pixels; a 4096 × 3072 PNG took 1.3–5 s on the 2-core
 * machine under load, and a flood of 8.4-megapixel transforms grew the process by 280 MiB
 * (`npm run bench:hostile`). No layout needs more.
 */
export const maxOutputPixels = 2560 * 1600
/**
 * Largest `w`/`h` accepted, `dpr` included; more is a 400 (Sanity documents no limit):
 * `w=8192&h=8192&dpr=3` asks for 24,576 px a side, which no layout needs.
 */
export const maxRequestedSide = 8192
/**
 * `q` is rounded to a multiple of this: nobody sees q=71 from q=70, and 101 distinct values per
 * size would be 101 cache entries and renders for one image.
 */
const qualityStep = 5

export interface ImageParams {
  width?: number
  height?: number
  fit: Fit
  format?: Format
  quality: number
  /** `rect=left,top,width,height`: a crop of the source before resizing. */
  rect?: {left: number; top: number; width: number; height: number}
  /** `crop=`: which part `fit=crop` keeps (centre by default). */
  crop?: CropMode
  /** `fp-x`, `fp-y` (0–1 of the image or rect): the point `crop=focalpoint` centres on. */
  focalPoint?: {x: number; y: number}
}

/** Sanity's `fit` modes as sharp's resize options (https://www.sanity.io/docs/image-urls#fit). */
export const sharpFit: Record<
  Fit,
  {fit: 'inside' | 'cover' | 'contain' | 'fill'; withoutEnlargement: boolean}
> = {
  clip: {fit: 'inside', withoutEnlargement: false},
  max: {fit: 'inside', withoutEnlargement: true},
  crop: {fit: 'cover', withoutEnlargement: false},
  min: {fit: 'cover', withoutEnlargement: true},
  fill: {fit: 'contain', withoutEnlargement: false},
  fillmax: {fit: 'contain', withoutEnlargement: true},
  scale: {fit: 'fill', withoutEnlargement: false},
}

function integer(value: string, name: string, min: number, max: number): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`"${name}" must be an integer from ${min} to ${max}`)
  return n
}

function isOneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return list.some((item) => item === value)
}

/**
 * What `auto=format` serves for a browser's `Accept`: AVIF, then WebP, else the source's own
 * format (undefined). AVIF costs about twice WebP's encode at effort 0 and saves a third of the
 * bytes of a photo (docs/images.md, "AVIF"); every browser that sends `image/avif` decodes it.
 */
export function bestFormat(accept: string): Format | undefined {
  if (accept.includes('image/avif')) return 'avif'
  if (accept.includes('image/webp')) return 'webp'
  return undefined
}

/**
 * Reads Sanity's image URL parameters `w`, `h`, `fit`, `fm`, `q`, `crop`, `fp-x`, `fp-y`, plus
 * `dpr`, `rect` and `auto=format` that @sanity/image-url adds. Throws `Error` with a message for a bad value;
 * unknown parameters are ignored, as Sanity's CDN does.
 */
export function parseImageParams(query: Record<string, string>, accept = ''): ImageParams {
  const dpr = query.dpr ? Number(query.dpr) : 1
  if (!(dpr >= 1 && dpr <= 3)) throw new Error('"dpr" must be from 1 to 3')
  const scaled = (name: string) => {
    if (!query[name]) return undefined
    const side = Math.round(integer(query[name], name, 1, maxRequestedSide) * dpr)
    if (side > maxRequestedSide)
      throw new Error(`"${name}" × "dpr" must be at most ${maxRequestedSide} pixels`)
    return side
  }
  const fit = query.fit ?? 'clip'
  if (!isOneOf(fits, fit)) throw new Error(`"fit" must be one of ${fits.join(', ')}`)
  const requested = query.fm
  if (requested !== undefined && !isOneOf(formats, requested))
    throw new Error(`"fm" must be one of ${formats.join(', ')}`)
  const format: Format | undefined =
    requested ?? (query.auto === 'format' ? bestFormat(accept) : undefined)
  const quality = query.q ? integer(query.q, 'q', 0, 100) : 75
  const params: ImageParams = {
    width: scaled('w'),
    height: scaled('h'),
    fit,
    format,
    quality: Math.max(qualityStep, Math.round(quality / qualityStep) * qualityStep),
  }
  if (query.crop) {
    // Sanity takes a list (`crop=top,left`); the first mode is the one honoured here.
    const mode = query.crop.split(',')[0]
    if (!isOneOf(crops, mode)) throw new Error(`"crop" must be one of ${crops.join(', ')}`)
    params.crop = mode
  }
  if (query['fp-x'] !== undefined || query['fp-y'] !== undefined) {
    const x = Number(query['fp-x'] ?? 0.5)
    const y = Number(query['fp-y'] ?? 0.5)
    if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1))
      throw new Error('"fp-x"/"fp-y" must be from 0 to 1')
    params.focalPoint = {x, y}
  }
  if (query.rect) {
    const parts = query.rect.split(',').map((part) => integer(part, 'rect', 0, 65535))
    if (parts.length !== 4 || parts[2] === 0 || parts[3] === 0)
      throw new Error('"rect" must be left,top,width,height')
    params.rect = {left: parts[0], top: parts[1], width: parts[2], height: parts[3]}
  }
  return params
}

/** True when the parameters ask for anything but the original bytes. */
export function isTransform(params: ImageParams): boolean {
  return (
    params.width !== undefined ||
    params.height !== undefined ||
    params.format !== undefined ||
    params.rect !== undefined
  )
}

/**
 * The size sharp will output for `box` over `region` (sharpFit): `inside` keeps the region's
 * aspect within the box, `contain` pads to the box even without enlargement, `cover` and `fill`
 * fill it; without enlargement nothing grows past the region.
 */
function outputSize(
  fit: Fit,
  box: {width: number; height: number},
  region: {width: number; height: number},
): {width: number; height: number} {
  const {fit: mode, withoutEnlargement} = sharpFit[fit]
  if (mode === 'inside') {
    const scale = Math.min(box.width / region.width, box.height / region.height)
    const s = withoutEnlargement ? Math.min(scale, 1) : scale
    return {width: region.width * s, height: region.height * s}
  }
  if (mode === 'cover' && withoutEnlargement)
    return {width: Math.min(box.width, region.width), height: Math.min(box.height, region.height)}
  return box
}

/**
 * AVIF only up to this many output pixels (a 1280 × 800 cover): its encode at effort 0 grows
 * faster with size than WebP's; a cold 1600-px AVIF from a 12 MP photo took 0.4–2.7 s at load 15
 * against WebP's 0.26 s (bench/images.ts). Larger outputs of `auto=format` are WebP, which every
 * browser that takes AVIF also takes.
 */
export const maxAvifPixels = 1280 * 800

/** The format a transform of bounded `params` outputs: AVIF only where it is cheap. */
export function cheapFormat(
  params: ImageParams,
  source: {width: number; height: number},
): Format | undefined {
  if (params.format !== 'avif') return params.format
  const out = outputSizeOf(params, source)
  return Math.round(out.width) * Math.round(out.height) <= maxAvifPixels ? 'avif' : 'webp'
}

/**
 * The size a transform of `params` (bounded) outputs from a source of `source` size, upright,
 * before rounding: what `rect` keeps, fitted to `w`/`h` as sharp fits it.
 */
export function outputSizeOf(
  params: ImageParams,
  source: {width: number; height: number},
): {width: number; height: number} {
  const region = params.rect ?? source
  const {width, height} = params
  if (width === undefined && height === undefined) return region
  const box = {
    width: width ?? ((height ?? 0) * region.width) / region.height,
    height: height ?? ((width ?? 0) * region.height) / region.width,
  }
  return outputSize(params.fit, box, region)
}

/**
 * The parameters a transform of an image of `source` size (after EXIF rotation) really runs:
 * the rect clipped to the image (an empty one is an `Error`), and the output scaled down, aspect
 * kept, until it is within `maxOutputSide` and `maxOutputPixels`. The requested sides shrink by
 * the factor the output needs (from no more than the output, for fits that never enlarge), so
 * the fit mode frames the same picture, smaller. A missing side is taken from the aspect, as
 * sharp does; with neither, the output is the (cropped) source size.
 */
export function boundedParams(
  params: ImageParams,
  source: {width: number; height: number},
): ImageParams {
  let region = source
  const bounded: ImageParams = {...params}
  if (params.rect) {
    const left = Math.min(params.rect.left, source.width)
    const top = Math.min(params.rect.top, source.height)
    const width = Math.min(params.rect.width, source.width - left)
    const height = Math.min(params.rect.height, source.height - top)
    if (width <= 0 || height <= 0) throw new Error('"rect" lies outside the image')
    bounded.rect = {left, top, width, height}
    region = {width, height}
  }
  const {width, height} = params
  if (params.fit === 'crop' && params.crop === 'focalpoint' && width && height) {
    // The largest box of the output's shape inside the region, centred on the focal point as
    // far as the region allows; it becomes the rect, and is then scaled to exactly w × h.
    const focal = params.focalPoint ?? {x: 0.5, y: 0.5}
    const offset = bounded.rect ?? {left: 0, top: 0}
    const aspect = width / height
    const boxWidth = Math.max(1, Math.min(region.width, Math.round(region.height * aspect)))
    const boxHeight = Math.max(1, Math.min(region.height, Math.round(region.width / aspect)))
    const clamp = (start: number, size: number, room: number) =>
      Math.round(Math.min(Math.max(start - size / 2, 0), room - size))
    bounded.rect = {
      left: offset.left + clamp(focal.x * region.width, boxWidth, region.width),
      top: offset.top + clamp(focal.y * region.height, boxHeight, region.height),
      width: boxWidth,
      height: boxHeight,
    }
    bounded.fit = 'scale'
    region = {width: boxWidth, height: boxHeight}
  }
  delete bounded.focalPoint
  if (bounded.crop === 'focalpoint' || bounded.fit !== 'crop') delete bounded.crop
  const resized = width !== undefined || height !== undefined
  const box = {
    width: width ?? (height ? (height * region.width) / region.height : region.width),
    height: height ?? (width ? (width * region.height) / region.width : region.height),
  }
  const out = resized ? outputSize(params.fit, box, region) : region
  const factor = Math.min(
    1,
    maxOutputSide / Math.max(out.width, out.height),
    Math.sqrt(maxOutputPixels / (out.width * out.height)),
  )
  if (factor >= 1) return bounded
  const scale = (side: number) => Math.max(1, Math.floor(side * factor))
  if (!resized) bounded.width = scale(region.width)
  else {
    bounded.width = width === undefined ? undefined : scale(Math.min(width, out.width))
    bounded.height = height === undefined ? undefined : scale(Math.min(height, out.height))
  }
  return bounded
}

/**
 * The cache key of a transform: its bounded parameters in one fixed order, with what cannot
 * change the output left out (`q` for PNG, `fit` without a resize), so URLs that render the
 * same bytes share an entry.
 */
export function variantKey(file: string, params: ImageParams, format: Format): string {
  const resized = params.width !== undefined || params.height !== undefined
  const parts = [
    `w=${params.width ?? ''}`,
    `h=${params.height ?? ''}`,
    `fit=${resized ? params.fit : ''}`,
    `fm=${format}`,
    `q=${format === 'png' ? '' : params.quality}`,
    `rect=${params.rect ? Object.values(params.rect).join(',') : ''}`,
    `crop=${params.crop ?? ''}`,
  ]
  return `${file}?${parts.join('&')}`
}

export type {Format as ImageFormat}
