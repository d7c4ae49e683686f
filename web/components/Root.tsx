import {Outlet} from 'react-router-dom'
import {Preview} from '../preview/Preview.tsx'
import {GlobalStyle} from './GlobalStyle.tsx'
import {useScrollToTop} from './useScrollToTop.ts'

/**
 * The root route: global styles, scroll-to-top on every route change, and in preview mode its
 * bar and overlays (inside the router: a Studio refresh revalidates the loaders).
 */
export function Root() {
  useScrollToTop()
  return (
    <>
      <GlobalStyle />
      <Preview />
      <Outlet />
    </>
  )
}
