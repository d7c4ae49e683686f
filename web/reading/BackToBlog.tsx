import {Link} from 'react-router-dom'

/** Above a post's title: the way back to the blog's list. */
export function BackToBlog() {
  return (
    <p>
      <Link to="/blog">← All posts</Link>
    </p>
  )
}
