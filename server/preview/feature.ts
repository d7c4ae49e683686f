import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import {hostedPreviewAccess, localPreviewAccess, type PreviewAccess} from './access.ts'
import {registerContentProxy} from './contentProxy.ts'
import {registerPreviewRoutes} from './routes.ts'

/**
 * Preview mode (docs/preview.md): the enable and disable routes the Studio's Presentation tool
 * uses, and the content proxy the browser reads drafts through. The site's renderer asks the
 * returned access whether a request is in preview.
 */
export function mountPreview(app: Hono, ctx: AppContext): PreviewAccess {
  const access = ctx.lake
    ? localPreviewAccess(ctx)
    : hostedPreviewAccess({
        projectId: ctx.config.projectId,
        dataset: ctx.config.dataset,
        readToken: ctx.config.hostedReadToken,
      })
  registerPreviewRoutes(app, access)
  registerContentProxy(app, access)
  return access
}
