import type {RouteObject} from 'react-router-dom'
import {PostLayout} from './components/PostLayout.tsx'
import {Root} from './components/Root.tsx'
import {RouteError} from './components/RouteError.tsx'
import {SiteLayout} from './components/SiteLayout.tsx'
import {Blog} from './routes/blog.tsx'
import {blogLoader} from './routes/blog.loader.ts'
import {Contact} from './routes/contact.tsx'
import {Home} from './routes/home.tsx'
import {homeLoader} from './routes/home.loader.ts'
import {NotFound} from './routes/notFound.tsx'
import {notFoundLoader} from './routes/notFound.loader.ts'
import {Post} from './routes/post.tsx'
import {postLoader} from './routes/post.loader.ts'
import {rootLoader} from './routes/root.loader.ts'
import {Search} from './routes/search.tsx'
import {searchLoader} from './routes/search.loader.ts'
import {Services} from './routes/services.tsx'
import {Subscribed} from './routes/subscribed.tsx'
import {subscribedPath} from '../shared/subscribeAnswer.ts'
import {servicesLoader} from './routes/services.loader.ts'
import {Testimonials} from './routes/testimonials.tsx'
import {testimonialsLoader} from './routes/testimonials.loader.ts'

/** Every route of the spec (§2) plus the not-found page, shared by server and browser. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: Root,
    loader: rootLoader,
    // The settings are read with the page; a navigation keeps them, a revalidation of the page
    // itself (preview mode's refresh after a Studio edit) reads them again.
    shouldRevalidate: ({currentUrl, nextUrl, defaultShouldRevalidate}) =>
      currentUrl.href === nextUrl.href && defaultShouldRevalidate,
    ErrorBoundary: RouteError,
    children: [
      {
        id: 'site',
        Component: SiteLayout,
        children: [
          {id: 'home', index: true, Component: Home, loader: homeLoader},
          {id: 'services', path: 'service', Component: Services, loader: servicesLoader},
          {
            id: 'testimonials',
            path: 'testimonial',
            Component: Testimonials,
            loader: testimonialsLoader,
          },
          // The canonical addresses of the two pages above (requirements §2) must answer too: the sitemap
          // and every canonical link point at them.
          {id: 'services-canonical', path: 'services', Component: Services, loader: servicesLoader},
          {
            id: 'testimonials-canonical',
            path: 'testimonials',
            Component: Testimonials,
            loader: testimonialsLoader,
          },
          {id: 'blog', path: 'blog', Component: Blog, loader: blogLoader},
          {id: 'contact', path: 'contact', Component: Contact},
          {id: 'search', path: 'search', Component: Search, loader: searchLoader},
          {id: 'subscribed', path: subscribedPath.slice(1), Component: Subscribed},
          {id: 'not-found', path: '*', Component: NotFound, loader: notFoundLoader},
        ],
      },
      {
        id: 'post-layout',
        Component: PostLayout,
        children: [{id: 'post', path: 'blog/:id', Component: Post, loader: postLoader}],
      },
    ],
  },
]
