import {useEffect} from 'react'
import {Outlet} from 'react-router-dom'
import {GlobalStyle} from './GlobalStyle.tsx'
import {useScrollToTop} from './useScrollToTop.ts'

/** The root route: global styles and scroll-to-top on every route change. */
export function Root() {
  useScrollToTop()
  // A marker for tests and tools that need to know the page is interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <>
      <GlobalStyle />
      <Outlet />
    </>
  )
}
