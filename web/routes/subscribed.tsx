import {Link} from 'react-router-dom'
import {PageMeta} from '../components/PageMeta.tsx'
import {checkInboxMessage, checkInboxTitle, subscribedPath} from '../../shared/subscribeAnswer.ts'

/**
 * Where a subscribe post lands (post/redirect/get: server/newsletter/routes.ts answers it with a
 * 303 here), so a reload shows this page again and posts nothing. A site page: the site's
 * layout, footer and Content-Security-Policy. Not indexed.
 */
export function Subscribed() {
  return (
    <>
      <PageMeta
        title={checkInboxTitle}
        description="Confirm your subscription from the mail."
        canonicalPath={subscribedPath}
      />
      <meta name="robots" content="noindex" />
      <h1>{checkInboxTitle}</h1>
      <p role="status">{checkInboxMessage}</p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </>
  )
}
