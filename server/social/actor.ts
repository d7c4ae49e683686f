import type {SocialContent} from './socialContent.ts'
import {owner, site} from '../../shared/siteIdentity.ts'

/** The handle when the site settings name none (issue 39: `@writer@<host>`). */
export const defaultHandle = 'writer'
/** The one actor's internal identifier: the handle may change, the actor's URL does not. */
export const actorIdentifier = 'site'

/** A handle as Mastodon accepts one: letters, digits and underscores (dots and dashes inside). */
const handlePattern = /^[a-z0-9_]([a-z0-9_.-]{0,62}[a-z0-9_])?$/i

/**
 * The site's fediverse handle: `fediverseHandle` of the site settings (`_id: "siteSettings"`),
 * when it is one, else `writer`. Read per request: the owner may change it in the Studio.
 */
export async function siteHandle(content: SocialContent): Promise<string> {
  const value = await content.query<unknown>('*[_id == "siteSettings"][0].fediverseHandle')
  return typeof value === 'string' && handlePattern.test(value.trim())
    ? value.trim().toLowerCase()
    : defaultHandle
}

/** Who the actor is: the owner as the site names her (shared/siteIdentity.ts). */
export const actorProfile = {
  name: owner.name,
  summary: `<p>${site.description}</p>`,
} as const
