import type {Context} from 'hono'
import {clientOf} from './http/clientAddress.ts'
import {presentedPreviewToken} from './http/previewCookie.ts'
import type {RemotePreview} from './forward/remotePreview.ts'
import {previewOf, type PreviewAccess} from './preview/access.ts'

/** The headers a page in preview reads the drafts with, once its session checks out. */
export type PreviewCredential = () =>
  | {headers: Record<string, string>}
  | undefined
  | Promise<{headers: Record<string, string>} | undefined>

/**
 * How a page request is seen in preview, handed to the site (server/render/feature.ts), which
 * knows neither where preview sessions live nor how they are kept: a live preview cookie over
 * HTTPS, checked against this process's sessions (server/preview/) or, in a site process, the
 * content process's (server/forward/remotePreview.ts). Undefined: not in preview.
 */
export function previewReads(
  preview: PreviewAccess | undefined,
  remote: RemotePreview | undefined,
): (c: Context) => PreviewCredential | undefined {
  return (c) => {
    const token = presentedPreviewToken(c)
    if (!token) return undefined
    if (remote)
      return async () => {
        const credential = await remote.credential(token, clientOf(c).key)
        return credential ? {headers: credential} : undefined
      }
    if (!preview) return undefined
    return () => {
      const session = previewOf(c, preview)
      return session ? {headers: session.credential} : undefined
    }
  }
}
