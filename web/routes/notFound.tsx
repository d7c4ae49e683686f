import {Link, useLocation} from 'react-router-dom'
import {PageMeta} from '../components/PageMeta.tsx'

/** The not-found page (the spec shows none; a real site needs one): links home and to the blog. */
export function NotFound() {
  const {pathname} = useLocation()
  return (
    <>
      <PageMeta
        title="Page not found"
        description="There is no page at this address."
        canonicalPath={pathname}
      />
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <ul>
        <li>
          <Link to="/">Go to the home page</Link>
        </li>
        <li>
          <Link to="/blog">Read the blog</Link>
        </li>
      </ul>
    </>
  )
}
