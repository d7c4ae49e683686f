import {Outlet} from 'react-router-dom'
import {Footer} from './Footer.tsx'
import {Frame, Main} from './Frame.tsx'
import {Loading} from './Loading.tsx'
import {NavBar} from './NavBar.tsx'
import {Stains} from './Stains.tsx'
import {useLoadingPost} from './useLoadingPost.ts'

/**
 * The post page's own decorative layout: three stains and the nav bar (requirements §2), and the
 * footer as on every page, so its Subscribe and RSS links are on every route (issue #35).
 */
export function PostLayout() {
  const loadingPost = useLoadingPost()
  return (
    <Frame>
      <Stains variant="post" />
      <NavBar />
      <Main id="main">{loadingPost ? <Loading /> : <Outlet />}</Main>
      <Footer />
    </Frame>
  )
}
