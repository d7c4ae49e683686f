import type {Hono} from 'hono'
import {notFound} from '../errors.ts'
import {storeOf, type Lake} from '../lake.ts'
import {maxOpenReleases, openReleaseCount} from '../releases/releaseLimits.ts'
import {requireIdentity} from '../http/request.ts'

/**
 * What the Studio asks the project before offering a feature (`useFeatureEnabled`): the lake
 * speaks Content Releases and their one-document form, scheduled drafts. Not `scheduledPublishing`:
 * that older plugin talks to a `/schedules` API the lake does not serve.
 */
export const lakeFeatures = ['contentReleases', 'singleDocRelease']

/** GET /features and the release limits the Studio checks before "New release". */
export function registerFeatures(app: Hono, lake: Lake): void {
  app.get('/:version/features', (c) => c.json(lakeFeatures))
  app.get('/:version/projects/:projectId/new-content-release-allowed', (c) => {
    if (c.req.param('projectId') !== lake.projectId)
      throw notFound(`Project "${c.req.param('projectId')}" not found`)
    requireIdentity(c, lake)
    // One owner, no organisation: only the dataset's limit applies (releaseLimits.ts).
    return c.json(
      {
        data: {
          datasetReleaseLimit: maxOpenReleases,
          datasetActiveReleaseCount: openReleaseCount(storeOf(lake).snapshot()),
          orgActiveReleaseLimit: null,
          orgMeteredActiveReleaseCount: 0,
        },
      },
      200,
      {'cache-control': 'private, no-store'},
    )
  })
}
