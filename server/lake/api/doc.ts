import type {Hono} from 'hono'
import {badRequest} from '../errors.ts'
import {checkDataset, flag, identify} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {idPattern} from '../writes/mutations.ts'
import {isPublicId, type Doc} from '../types.ts'

/** `excludeContent`: only the system fields, as Sanity answers it. */
function systemOnly(doc: Doc): Doc {
  const {_id, _type, _rev, _createdAt, _updatedAt} = doc
  const fields: Doc = {_id, _type}
  if (_rev !== undefined) fields._rev = _rev
  if (_createdAt !== undefined) fields._createdAt = _createdAt
  if (_updatedAt !== undefined) fields._updatedAt = _updatedAt
  return fields
}

/** GET /data/doc: documents by id; anonymous callers see published ones only. */
export function registerDoc(app: Hono, lake: Lake): void {
  app.get('/:version/data/doc/:dataset/:ids', (c) => {
    checkDataset(c, lake)
    const identity = identify(c, lake)
    // A preview session reads through queries; by id it sees what a visitor sees.
    const authenticated = identity !== undefined && !identity.preview
    // Hono has already decoded the path parameter once; decoding again turned `%25` into a 500.
    const ids = c.req
      .param('ids')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean)
    if (ids.length === 0) throw badRequest('No document ids given')
    const malformed = ids.find((id) => !idPattern.test(id))
    if (malformed !== undefined)
      throw badRequest(`Malformed document ID: ${JSON.stringify(malformed.slice(0, 200))}`)
    const excludeContent = flag(c, 'excludeContent')
    const documents: Doc[] = []
    const omitted: Array<{id: string; reason: 'existence' | 'permission'}> = []
    for (const id of ids) {
      if (!authenticated && !isPublicId(id)) {
        omitted.push({id, reason: 'permission'})
        continue
      }
      const doc = lake.getDocument(id)
      if (doc) documents.push(excludeContent ? systemOnly(doc) : doc)
      else omitted.push({id, reason: 'existence'})
    }
    return c.json({documents, omitted}, 200, {'cache-control': 'private, no-store'})
  })
}
