import type {Hono} from 'hono'
import {badRequest} from '../errors.ts'
import {checkDataset, flag, readJsonBody, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {previewSecretType} from '../sessions/previewSessions.ts'
import {authOf} from '../lake.ts'

/** POST /data/mutate: the owner's mutations, committed durably in one transaction. */
export function registerMutate(app: Hono, lake: Lake): void {
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
    // The Presentation tool's secret: a preview it opens ends with this Studio session.
    for (const {id, document} of result.results)
      if (document?._type === previewSecretType)
        authOf(lake).previews.noteSecretAuthor(id, identity)
    const returnDocuments = flag(c, 'returnDocuments')
    return c.json({
      transactionId: result.transactionId,
      results: result.results.map(({id, operation, document}) =>
        returnDocuments ? {id, operation, document} : {id, operation},
      ),
    })
  })
}
