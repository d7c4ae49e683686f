import {Outlet} from 'react-router-dom'
import {Footer} from './Footer.tsx'
import {Frame, Main} from './Frame.tsx'
import {Loading} from './Loading.tsx'
import {NavBar} from './NavBar.tsx'
import {Stains} from './Stains.tsx'
import {useLoadingPost} from './useLoadingPost.ts'

/** The shared layout: nav, five stains (four corners and the centre), content, footer. */
export function SiteLayout() {
  const loadingPost = useLoadingPost()
  return (
    <Frame>
      <Stains variant="site" />
      <NavBar />
      <Main id="main">{loadingPost ? <Loading /> : <Outlet />}</Main>
      <Footer />
    </Frame>
  )
}
