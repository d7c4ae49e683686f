import type {AppContext} from '../context.ts'
import {hostedContent} from './hostedContent.ts'
import {lakeContent, type SocialContent} from './socialContent.ts'
import {hostedWriteToken} from './writeToken.ts'

/**
 * Where this process keeps the social web's documents, or why it is not on the social web:
 * the local lake in process; in hosted mode the project's dataset with the write token; a site
 * process (LAKE_URL) none, since it forwards the federation's paths to the content process
 * (server/forward/federation.ts). `apiHost` is a test's stand-in for sanity.io.
 */
export function contentFor(
  ctx: Pick<AppContext, 'lake' | 'config' | 'contentEvents'>,
  apiHost?: string,
): SocialContent | {off: string} | undefined {
  const {lake, config} = ctx
  if (lake) return lakeContent(lake)
  if (config.hostedProjectId === undefined) return undefined
  const write = hostedWriteToken(config.hostedWriteToken, config.dataDir)
  if ('reason' in write) return {off: write.reason}
  return hostedContent({
    projectId: config.hostedProjectId,
    dataset: config.dataset,
    token: write.token,
    contentEvents: ctx.contentEvents,
    apiHost,
  })
}
