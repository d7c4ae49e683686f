import type {Hono} from 'hono'
import {badRequest} from '../errors.ts'
import {checkDataset, flag, identify, readJsonBody, requireIdentity} from './http.ts'
import type {Lake} from '../lake.ts'
import {applyActions} from '../actions.ts'
import {idPattern} from '../mutations.ts'
import {isPublicId, type Doc} from '../types.ts'

const systemFields = ['_id', '_type', '_rev', '_createdAt', '_updatedAt'] as const

function systemOnly(doc: Doc): Doc {
  return Object.fromEntries(systemFields.filter((k) => k in doc).map((k) => [k, doc[k]])) as Doc
}

/** GET /data/doc, POST /data/mutate and POST /data/actions. */
export function registerDocuments(app: Hono, lake: Lake): void {
  app.get('/:version/data/doc/:dataset/:ids', (c) => {
    checkDataset(c, lake)
    const authenticated = identify(c, lake) !== undefined
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

  app.post('/:version/data/mutate/:dataset', async (c) => {
    checkDataset(c, lake)
    const identity = requireIdentity(c, lake)
    const body = await readJsonBody(c)
    const mutations = body.mutations
    if (!Array.isArray(mutations) || mutations.length === 0)
      throw badRequest('"mutations" must be a non-empty array')
    const transactionId =
      typeof body.transactionId === 'string' ? body.transactionId : c.req.query('transactionId')
    // Every commit is durable and visible before we answer, so all three modes behave as `sync`.
    const visibility = c.req.query('visibility')
    if (visibility !== undefined && !['sync', 'async', 'deferred'].includes(visibility)) {
      throw badRequest(`Invalid visibility "${visibility}"; expected sync, async or deferred`)
    }
    const result = await lake.mutate(mutations, {
      transactionId: transactionId || undefined,
      author: identity.userId,
      dryRun: flag(c, 'dryRun'),
      autoGenerateArrayKeys: flag(c, 'autoGenerateArrayKeys'),
    })
    const returnDocuments = flag(c, 'returnDocuments')
    return c.json({
      transactionId: result.transactionId,
      results: result.results.map(({id, operation, document}) =>
        returnDocuments ? {id, operation, document} : {id, operation},
      ),
    })
  })

  app.post('/:version/data/actions/:dataset', async (c) => {
    checkDataset(c, lake)
    const identity = requireIdentity(c, lake)
    const body = await readJsonBody(c)
    const actions = body.actions
    if (!Array.isArray(actions) || actions.length === 0)
      throw badRequest('"actions" must be a non-empty array')
    const transactionId = typeof body.transactionId === 'string' ? body.transactionId : undefined
    const {tx} = await lake.transact(
      {transactionId, author: identity.userId, dryRun: body.dryRun === true},
      (t) => applyActions(t, actions),
    )
    return c.json({transactionId: tx.id})
  })
}
