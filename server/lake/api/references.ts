import type {Hono} from 'hono'
import {checkDataset, flag, requireIdentity} from '../http/request.ts'
import type {Lake} from '../lake.ts'

/**
 * GET /data/references/{dataset}/documents/{id}/to: who refers to a document. A local lake has
 * no cross-dataset references, so with `excludeInternalReferences` (what the Studio's delete
 * dialog asks) the answer is empty; otherwise the same-dataset referrers are listed.
 */
export function registerReferences(app: Hono, lake: Lake): void {
  app.get('/:version/data/references/:dataset/documents/:id/to', async (c) => {
    checkDataset(c, lake)
    requireIdentity(c, lake)
    if (flag(c, 'excludeInternalReferences')) return c.json({totalCount: 0, references: []})
    const ids = await lake.query<string[]>(
      '*[references($id)]._id',
      {id: c.req.param('id')},
      {authenticated: true},
    )
    return c.json({
      totalCount: ids.length,
      references: ids.map((documentId) => ({
        documentId,
        projectId: lake.projectId,
        datasetName: lake.dataset,
      })),
    })
  })
}
