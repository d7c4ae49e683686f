import {map} from 'rxjs'
import type {DocumentLocation, DocumentLocationResolver} from 'sanity/presentation'

/**
 * Where the site's copy documents (issue #37) appear, so Presentation lists the pages beside each
 * one and opens the right page from the editor. The singletons and testimonials have fixed
 * pages; a category's tab is found by its slug, read in the drafts perspective so a draft's new
 * slug is where the preview goes.
 */
const home: DocumentLocation = {title: 'Home', href: '/'}
const services: DocumentLocation = {title: 'Services', href: '/services'}
const testimonials: DocumentLocation = {title: 'Testimonials', href: '/testimonials'}
const blog: DocumentLocation = {title: 'Blog', href: '/blog'}

/** Pages per type, for the types whose pages do not depend on the document. */
const fixed: Record<string, DocumentLocation[]> = {
  // Every page shows the settings (header, footer, meta): the main ones are listed.
  siteSettings: [home, services, testimonials, blog],
  homePage: [home],
  servicesPage: [services, testimonials],
  testimonial: [testimonials, home],
}

const categoryLocations: DocumentLocationResolver = (params, context) =>
  context.documentStore
    .listenQuery(
      `*[_id == $id][0]{title, "slug": slug.current}`,
      {id: params.id},
      {perspective: 'drafts'},
    )
    .pipe(
      map((category: {title?: string; slug?: string} | null) => {
        const slug = category?.slug
        if (!slug)
          return {message: 'This category has no slug yet, so it has no tab.', tone: 'caution'}
        return {
          locations: [
            {
              title: category.title || slug,
              href: `/blog?category=${encodeURIComponent(slug)}`,
            },
            blog,
          ],
        }
      }),
    )

/** The locations of a copy document, or null for any other type. */
export const copyLocations: DocumentLocationResolver = (params, context) => {
  if (params.type === 'category') return categoryLocations(params, context)
  const locations = fixed[params.type]
  return locations ? {locations} : null
}

/** The document a page is mainly about, so opening the page opens it in the editor. */
export const copyMainDocuments = [
  {route: '/', filter: `_type == "homePage" && _id == "homePage"`},
  {route: '/services', filter: `_type == "servicesPage" && _id == "servicesPage"`},
  {route: '/testimonials', filter: `_type == "servicesPage" && _id == "servicesPage"`},
]
