import {feedPaths, site} from '../../shared/siteIdentity.ts'
import {absoluteUrl} from '../../shared/siteUrls.ts'

/**
 * `<link rel="alternate">` to the RSS and Atom feeds, so browsers and feed readers find them
 * from any page (RSS Board's autodiscovery; RFC 4287 §4.2.7.2 for Atom). React 19 hoists the
 * links into <head>.
 */
export function FeedLinks({siteUrl}: {siteUrl: string}) {
  return (
    <>
      <link
        rel="alternate"
        type="application/rss+xml"
        title={`${site.blogTitle} (RSS)`}
        href={absoluteUrl(siteUrl, feedPaths.rss)}
      />
      <link
        rel="alternate"
        type="application/atom+xml"
        title={`${site.blogTitle} (Atom)`}
        href={absoluteUrl(siteUrl, feedPaths.atom)}
      />
    </>
  )
}
