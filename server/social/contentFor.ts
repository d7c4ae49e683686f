import {createHash, timingSafeEqual} from 'node:crypto'
import type {AppContext} from '../context.ts'
import {FailedAttempts} from '../util/failedAttempts.ts'
import {hostedContent} from './hostedContent.ts'
import type {OwnerCheck} from './ownerRoutes.ts'
import {lakeContent, type SocialContent} from './socialContent.ts'
import {hostedWriteToken} from '../util/hostedWriteToken.ts'

/** Where the social web's documents are, and who may act as the owner on its routes. */
export interface SocialStore {
  content: SocialContent
  owner: OwnerCheck
}

const digest = (token: string) => createHash('sha256').update(token).digest()

/** Whether `token` is `expected`, in constant time (digests: equal lengths whatever was sent). */
function isToken(expected: string): OwnerCheck['verify'] {
  const want = digest(expected)
  return (token) => (token !== undefined && timingSafeEqual(digest(token), want) ? {} : undefined)
}

/**
 * Where this process keeps the social web's documents, or why it is not on the social web:
 * the local lake in process; in hosted mode the project's dataset with the write token; a site
 * process (LAKE_URL) none, since it forwards the federation's paths to the content process
 * (server/forward/federation.ts). `apiHost` is a test's stand-in for sanity.io.
 *
 * The owner's routes take the lake's owner token and Studio sessions; in hosted mode, where
 * the Studio's sessions are sanity.io's, the write token itself: whoever holds it can already
 * write every document these routes write.
 */
export function contentFor(
  ctx: Pick<AppContext, 'lake' | 'config' | 'contentEvents'>,
  apiHost?: string,
): SocialStore | {off: string} | undefined {
  const {lake, config} = ctx
  if (lake)
    return {
      content: lakeContent(lake),
      owner: {verify: (token) => lake.verifyToken(token), attempts: lake.failedTokenAttempts()},
    }
  if (config.hostedProjectId === undefined) return undefined
  const write = hostedWriteToken(config.hostedWriteToken, config.dataDir)
  if ('reason' in write) return {off: write.reason}
  return {
    content: hostedContent({
      projectId: config.hostedProjectId,
      dataset: config.dataset,
      token: write.token,
      contentEvents: ctx.contentEvents,
      apiHost,
    }),
    owner: {verify: isToken(write.token), attempts: new FailedAttempts()},
  }
}
