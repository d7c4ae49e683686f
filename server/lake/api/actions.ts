import type {Hono} from 'hono'
import {badRequest} from '../errors.ts'
import {checkDataset, readJsonBody, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {applyActions} from '../writes/actions.ts'

/** POST /data/actions: the owner's document actions (the Studio's publish, discard, ...). */
export function registerActions(app: Hono, lake: Lake): void {
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
      (t) => applyActions({tx: t, lastRevision: (id) => lake.lastRevision(id)}, actions),
    )
    return c.json({transactionId: tx.id})
  })
}
