import {useLayoutEffect} from 'react'
import {useLocation} from 'react-router-dom'

/** Scrolls to the top whenever the path changes (requirements §2); a blog tab switch keeps its place. */
export function useScrollToTop(): void {
  const {pathname} = useLocation()
  useLayoutEffect(() => {
    window.scrollTo(0, 0)
  }, [pathname])
}
