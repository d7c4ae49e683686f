/** Output formats of Sanity's image pipeline that we support (`fm`). */
const formats = ['jpg', 'pjpg', 'png', 'webp'] as const
type Format = (typeof formats)[number]
const fits = ['clip', 'crop', 'fill', 'fillmax', 'max', 'scale', 'min'] as const
type Fit = (typeof fits)[number]

export interface ImageParams {
  width?: number
  height?: number
  fit: Fit
  format?: Format
  quality: number
  /** `rect=left,top,width,height`: a crop of the source before resizing. */
  rect?: {left: number; top: number; width: number; height: number}
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

/**
 * Reads Sanity's image URL parameters `w`, `h`, `fit`, `fm`, `q`, plus `dpr`, `rect` and
 * `auto=format` that @sanity/image-url adds. Throws `Error` with a message for a bad value;
 * unknown parameters are ignored, as Sanity's CDN does.
 */
export function parseImageParams(query: Record<string, string>, accept = ''): ImageParams {
  const dpr = query.dpr ? Number(query.dpr) : 1
  if (!(dpr >= 1 && dpr <= 3)) throw new Error('"dpr" must be from 1 to 3')
  const scaled = (name: string) =>
    query[name] ? Math.round(integer(query[name], name, 1, 8192) * dpr) : undefined
  const fit = (query.fit ?? 'clip') as Fit
  if (!fits.includes(fit)) throw new Error(`"fit" must be one of ${fits.join(', ')}`)
  let format = query.fm as Format | undefined
  if (format !== undefined && !formats.includes(format))
    throw new Error(`"fm" must be one of ${formats.join(', ')}`)
  if (!format && query.auto === 'format' && accept.includes('image/webp')) format = 'webp'
  const params: ImageParams = {
    width: scaled('w'),
    height: scaled('h'),
    fit,
    format,
    quality: query.q ? integer(query.q, 'q', 0, 100) : 75,
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
