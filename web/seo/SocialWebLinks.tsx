import {socialActorPath} from '../../shared/siteIdentity.ts'
import {absoluteUrl} from '../../shared/siteUrls.ts'
import {useSiteConfig} from '../components/useSiteConfig.ts'

const activityJson = 'application/activity+json'

/**
 * The page's ActivityPub twin in `<link rel="alternate">` (issue 39; the discovery Mastodon and
 * WordPress's plugin do): the actor on Home, with `rel="me"` as it is the owner's own account,
 * and a post's `Article` (the post's own URL, asked for as activity+json) on a post that is
 * shared. Only when the site is on the social web (SiteConfig `socialWeb`: the local lake, or
 * hosted mode with a write token).
 */
export function SocialWebLinks({postPath}: {postPath?: string}) {
  const {socialWeb, siteUrl} = useSiteConfig()
  if (!socialWeb) return null
  if (postPath)
    return <link rel="alternate" type={activityJson} href={absoluteUrl(siteUrl, postPath)} />
  const actor = absoluteUrl(siteUrl, socialActorPath)
  return (
    <>
      <link rel="alternate" type={activityJson} href={actor} />
      <link rel="me" href={actor} />
    </>
  )
}
