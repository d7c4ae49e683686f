import {useLocation} from 'react-router-dom'
import styled from 'styled-components'
import {framedAttribute} from '../boot/boot.ts'
import {theme} from '../components/theme.ts'
import {previewDisablePath} from '../../shared/constants.ts'

// Ink on paper inverted: 14:1 contrast. Hidden when the Studio frames the page (it has its own
// preview UI); the boot script marks that before the first paint (boot/boot.ts).
const Bar = styled.aside`
  padding: 0.5rem 1.25rem;
  background: ${theme.ink};
  color: ${theme.paper};
  font-family: ${theme.sans};
  font-size: 0.95rem;
  text-align: center;
  p {
    margin: 0;
  }
  a {
    display: inline-block;
    padding: 0.25rem 0.5rem;
    color: ${theme.paper};
    font-weight: 600;
    text-decoration: underline;
  }
  a:focus-visible {
    outline: 2px solid ${theme.paper};
    outline-offset: 2px;
  }
  html[${framedAttribute}] & {
    display: none;
  }
`

/**
 * "Preview: drafts shown · Exit" above the page when the owner previews it outside the Studio:
 * what they see is not what visitors see. Exit ends preview mode and comes back to this page.
 */
export function PreviewBar() {
  const {pathname, search} = useLocation()
  const exit = `${previewDisablePath}?${new URLSearchParams({redirect: `${pathname}${search}`})}`
  return (
    <Bar aria-label="Preview mode">
      <p>
        Preview: drafts shown <span aria-hidden="true">·</span> <a href={exit}>Exit</a>
      </p>
    </Bar>
  )
}
