import sharp from 'sharp'

/** What an upload's pixels say: read once at reduced size, and in full only where it must. */
export interface PixelFacts {
  /** Every pixel fully opaque (Sanity's `isOpaque`). */
  isOpaque: boolean
  dominant: {r: number; g: number; b: number}
  /** The LQIP's bytes: a 20-px upright JPEG, or PNG when the image has alpha. */
  lqip: Buffer
}

/**
 * The side of the reduced copy the dominant colour and the LQIP are taken from. A JPEG is
 * decoded straight to about this size (libjpeg's shrink-on-load at 1/2, 1/4 or 1/8), never at
 * full size: the dominant colour of 512 px is the photo's, and the LQIP is 20 px.
 */
const reducedSide = 512

/**
 * Decodes an upload to check it and describe it. Every pixel is decoded (`failOn: 'truncated'`:
 * a file cut short would otherwise decode to grey rows), in one pass, streaming
 * (`sequentialRead`), to a reduced upright copy; only an image with an alpha channel is read a
 * second time in full, because one translucent pixel makes it not opaque and a reduced copy
 * averages that pixel away. Throws on a truncated or corrupt file.
 *
 * Measured with a 100 MP JPEG (12,240 × 8,192, 23 MB) on the 2-core machine, one libvips
 * thread, in a process of 117 MB: the earlier code decoded it whole twice (a full-size `stats()`,
 * then the LQIP) and peaked at 433 MB RSS in 18.7 s; this peaks at 127 MB in 1.9 s
 * (docs/images.md, "Large photos").
 */
export async function readPixels(bytes: Buffer, hasAlpha: boolean): Promise<PixelFacts> {
  const {data, info} = await sharp(bytes, {
    failOn: 'truncated',
    animated: false,
    sequentialRead: true,
  })
    .rotate()
    .resize(reducedSide, reducedSide, {fit: 'inside', withoutEnlargement: true})
    .raw()
    .toBuffer({resolveWithObject: true})
  const reduced = () =>
    sharp(data, {raw: {width: info.width, height: info.height, channels: info.channels}})
  // Orientation changes neither the colours nor the alpha: the full read is not turned upright.
  const full = hasAlpha
    ? await sharp(bytes, {failOn: 'truncated', animated: false, sequentialRead: true}).stats()
    : undefined
  const stats = full ?? (await reduced().stats())
  const small = reduced().resize(20, 20, {fit: 'inside'})
  const lqip = await (hasAlpha ? small.png() : small.jpeg({quality: 40})).toBuffer()
  return {isOpaque: stats.isOpaque, dominant: stats.dominant, lqip}
}
