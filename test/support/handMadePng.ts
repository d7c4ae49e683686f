import {pngChunk} from './pngChunk.ts'

/** PNG's signature (ISO/IEC 15948 §5.2). */
const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * A PNG whose header declares `width` × `height` at 8 bits, colour type `colorType` (0 grey,
 * 2 RGB), with `idat` (deflated rows) as its one data chunk: a header may declare any size, so
 * tests make decompression bombs and oversized photos from a few bytes, or real images row by row.
 */
export function handMadePng(width: number, height: number, colorType: 0 | 2, idat: Buffer): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, colorType, 0, 0, 0], 8)
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}
