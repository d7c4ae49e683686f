import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'

type Server = LakeUnderTest

describe('image upload and serving', () => {
  let server: Server
  let png: Buffer
  let document: Record<string, unknown> & {_id: string; path: string}
  const upload = (body: Buffer | string, token = server.lake?.token) =>
    fetch(
      `${server.url}/v2026-05-04/assets/images/production?filename=red.png&tag=sanity.studio.asset.upload`,
      {
        method: 'POST',
        headers: {
          'content-type': 'image/png',
          ...(token ? {authorization: `Bearer ${token}`} : {}),
        },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      },
    )

  beforeAll(async () => {
    server = await startLakeUnderTest()
    png = await sharp({create: {width: 40, height: 30, channels: 3, background: '#c33'}})
      .png()
      .toBuffer()
  })
  afterAll(() => server.stop())

  it("stores an upload as a sanity.imageAsset with Sanity's fields", async () => {
    const res = await upload(png)
    expect(res.status).toBe(200)
    document = ((await res.json()) as {document: typeof document}).document
    expect(document._id).toMatch(/^image-[0-9a-f]{40}-40x30-png$/)
    expect(document).toMatchObject({
      _type: 'sanity.imageAsset',
      extension: 'png',
      mimeType: 'image/png',
      originalFilename: 'red.png',
      size: png.length,
      path: expect.stringMatching(/^images\/scriptorium\/production\/[0-9a-f]{40}-40x30\.png$/),
      url: `${server.url}/${document.path}`,
      metadata: {
        dimensions: {width: 40, height: 30, aspectRatio: 40 / 30},
        lqip: expect.stringMatching(/^data:image\/jpeg;base64,/),
      },
    })
    expect(server.lake?.getDocument(document._id)).toMatchObject({sha1hash: document.sha1hash})
    const again = (await (await upload(png)).json()) as {document: {_id: string}}
    expect(again.document._id).toBe(document._id)
  })

  it('serves the original and resized variants (w, h, fit, fm, q)', async () => {
    const original = await fetch(`${server.url}/${document.path}`)
    expect(original.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true)
    const resized = await fetch(`${server.url}/${document.path}?w=20&fm=webp&q=60`)
    expect(resized.headers.get('content-type')).toBe('image/webp')
    expect(await sharp(Buffer.from(await resized.arrayBuffer())).metadata()).toMatchObject({
      width: 20,
      height: 15,
      format: 'webp',
    })
    const cropped = await fetch(`${server.url}/${document.path}?w=10&h=10&fit=crop&fm=jpg`)
    expect(await sharp(Buffer.from(await cropped.arrayBuffer())).metadata()).toMatchObject({
      width: 10,
      height: 10,
      format: 'jpeg',
    })
    const max = await fetch(`${server.url}/${document.path}?w=400&fit=max&fm=png`)
    expect(await sharp(Buffer.from(await max.arrayBuffer())).metadata()).toMatchObject({width: 40})
  })

  it('answers bad input with a clear 4xx and stores nothing', async () => {
    const before = server.lake?.revision
    expect((await upload(png, '')).status).toBe(401)
    const notImage = await upload('just text')
    expect(notImage.status).toBe(400)
    expect(((await notImage.json()) as {error: {description: string}}).error.description).toMatch(
      /not an image/,
    )
    expect(server.lake?.revision).toBe(before)
    expect((await fetch(`${server.url}/${document.path}?w=0`)).status).toBe(400)
    expect((await fetch(`${server.url}/${document.path}?fit=stretch`)).status).toBe(400)
    expect(
      (await fetch(`${server.url}/images/scriptorium/production/${'0'.repeat(40)}-1x1.png`)).status,
    ).toBe(404)
    expect(
      (await fetch(`${server.url}/images/scriptorium/production/..%2Fowner-token`)).status,
    ).toBe(404)
  })
})
