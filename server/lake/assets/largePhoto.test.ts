import {createDeflate} from 'node:zlib'
import {ClientError} from '@sanity/client'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {maxInputPixels} from './assetStore.ts'
import {handMadePng} from '../../../test/support/handMadePng.ts'

/**
 * A real, fully decodable grey PNG of `width` × `height` (8-bit greyscale), made row by row so
 * the test never holds the 100 MB of pixels; it compresses to some 100 KB. With `rows` 0 it is
 * a header alone, which the lake refuses from its size before decoding anything.
 */
async function greyPng(width: number, height: number, rows = height): Promise<Buffer> {
  const deflate = createDeflate({level: 9})
  const chunks: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise((resolve) => deflate.on('end', resolve))
  const row = Buffer.alloc(width + 1, 0x80)
  row[0] = 0 // filter type None
  for (let y = 0; y < rows; y++)
    if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r))
  deflate.end()
  await ended
  return handMadePng(width, height, 0, Buffer.concat(chunks))
}

describe('large photos (issue 35 §4)', () => {
  let server: LakeUnderTest
  beforeAll(async () => {
    server = await startLakeUnderTest()
  })
  afterAll(() => server.stop())

  it('a 100-megapixel photo is stored, described and served', async () => {
    const asset = await server.owner.assets.upload('image', await greyPng(12_240, 8_192), {
      filename: 'phone-100mp.png',
    })
    expect(asset.metadata.dimensions).toMatchObject({width: 12_240, height: 8_192})
    expect(asset.metadata.lqip).toMatch(/^data:image\/jpeg;base64,/)
    const variant = await fetch(`${server.url}/${asset.path}?w=400&fm=jpg`)
    expect(variant.status).toBe(200)
    const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata()
    expect({width: meta.width, height: meta.height}).toEqual({width: 400, height: 268})
    // Decoding 100 MP is seconds of CPU on a loaded 2-core machine, by design not a timing test.
  }, 120_000)

  it("past the limit the reason is in the answer's error.description, which @sanity/client makes its message", async () => {
    const bytes = await greyPng(16_400, 12_300, 0)
    expect(16_400 * 12_300).toBeGreaterThan(maxInputPixels)
    const res = await server.fetch('/v2025-02-19/assets/images/production', {
      method: 'POST',
      token: server.token,
      headers: {'content-type': 'image/png'},
      body: new Uint8Array(bytes),
    })
    expect(res.status).toBe(400)
    const reason = 'The image is 16400 × 12300 pixels; at most 200 megapixels are accepted'
    expect(await res.json()).toEqual({error: {type: 'httpBadRequest', description: reason}})
    // What the Studio's uploader gets (and logs): a ClientError whose message is the reason.
    const refused: unknown = await server.owner.assets
      .upload('image', bytes, {filename: 'too-big.png'})
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(refused).toBeInstanceOf(ClientError)
    expect(refused).toMatchObject({statusCode: 400, message: reason})
  })
})
