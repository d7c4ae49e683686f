import {Outlet} from 'react-router-dom'
import {GlobalStyle} from './GlobalStyle.tsx'
import {useScrollToTop} from './useScrollToTop.ts'

/** The root route: global styles and scroll-to-top on every route change. */
export function Root() {
  useScrollToTop()
  return (
    <>
      <GlobalStyle />
      <Outlet />
    </>
  )
}
