import type {Hono} from 'hono'
import {BodyTooLargeError, readBody} from '../../http/body.ts'
import {badRequest, LakeError} from '../errors.ts'
import {checkDataset, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import type {Doc} from '../types.ts'
import {UnsupportedImageError, type AssetStore, type StoredImage} from './assetStore.ts'

/** Largest image upload accepted. */
export const maxUploadBytes = 25 * 1024 * 1024

const text = (value: string | undefined) => (value ? value.slice(0, 1000) : undefined)

/** The `sanity.imageAsset` document for a stored image, with Sanity's fields. */
export function imageAssetDocument(
  image: StoredImage,
  lake: Pick<Lake, 'projectId' | 'dataset'>,
  siteUrl: string,
  query: Record<string, string | undefined>,
): Doc {
  const path = `images/${lake.projectId}/${lake.dataset}/${image.fileName}`
  const doc: Doc = {
    _id: `image-${image.sha1}-${image.width}x${image.height}-${image.extension}`,
    _type: 'sanity.imageAsset',
    assetId: image.sha1,
    extension: image.extension,
    mimeType: image.mimeType,
    originalFilename: text(query.filename),
    path,
    sha1hash: image.sha1,
    size: image.size,
    uploadId: image.sha1,
    url: `${siteUrl}/${path}`,
    label: text(query.label),
    title: text(query.title),
    description: text(query.description),
    creditLine: text(query.creditLine),
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: {
        _type: 'sanity.imageDimensions',
        width: image.width,
        height: image.height,
        aspectRatio: image.width / image.height,
      },
      hasAlpha: image.hasAlpha,
      isOpaque: image.isOpaque,
      lqip: image.lqip,
      palette: {_type: 'sanity.imagePalette', dominant: image.dominant},
    },
  }
  if (query.sourceName && query.sourceId) {
    doc.source = {
      name: text(query.sourceName),
      id: text(query.sourceId),
      url: text(query.sourceUrl),
    }
  }
  for (const key of Object.keys(doc)) if (doc[key] === undefined) delete doc[key]
  return doc
}

/**
 * POST /assets/images/{dataset}: the body is the image. Stores the file, creates the
 * `sanity.imageAsset` document through the lake (so listeners and history see it) and answers
 * `{document}` as Sanity does; the same bytes again return the existing asset.
 */
export function registerAssetUpload(
  app: Hono,
  lake: Lake,
  siteUrl: () => string,
  store: AssetStore,
): void {
  app.post('/:version/assets/images/:dataset', async (c) => {
    checkDataset(c, lake)
    const identity = requireIdentity(c, lake)
    let bytes: Buffer
    try {
      const body = await readBody(c.req.raw, maxUploadBytes)
      bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error
      throw new LakeError(
        413,
        'requestEntityTooLarge',
        `Images may be at most ${maxUploadBytes} bytes`,
      )
    }
    if (bytes.length === 0) throw badRequest('The upload is empty')
    let image: StoredImage
    try {
      image = await store.storeImage(bytes, c.req.header('content-type'))
    } catch (error) {
      // A full disk is storeImage's 507 LakeError, and carries no path; other write errors
      // are a 500 whose details only the log sees.
      if (error instanceof UnsupportedImageError) throw badRequest(error.message)
      throw error
    }
    const document = imageAssetDocument(image, lake, siteUrl(), c.req.query())
    const existing = lake.getDocument(document._id)
    if (existing) return c.json({document: existing})
    try {
      await lake.mutate([{createIfNotExists: document}], {author: identity.userId})
    } catch (error) {
      // Nothing half-applied: a file without its asset document is removed again (unless a
      // concurrent upload of the same bytes stored the document meanwhile).
      if (!lake.getDocument(document._id)) store.discard(image)
      throw error
    }
    return c.json({document: lake.getDocument(document._id) ?? document})
  })
}
