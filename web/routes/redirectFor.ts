import type {SanityClient} from '@sanity/client'
import {redirect} from 'react-router-dom'
import {isExternalTarget, isSitePath} from '../../schemas/redirectRules.ts'
import {redirectQuery} from '../queries.ts'

/**
 * The redirect an unknown address answers with, or undefined: 301 (302 if not permanent) to a
 * path of this site, or to an https address only when the owner marked it external. The target
 * comes from a redirect document only, never from the request, so the site is no open redirect.
 */
export async function redirectFor(
  client: SanityClient,
  path: string,
): Promise<Response | undefined> {
  if (!isSitePath(path)) return undefined
  const found = await client.fetch(redirectQuery, {path})
  if (!found?.to) return undefined
  const allowed = found.external === true ? isExternalTarget(found.to) : isSitePath(found.to)
  if (!allowed || found.to === path) return undefined
  return redirect(found.to, found.permanent === false ? 302 : 301)
}
