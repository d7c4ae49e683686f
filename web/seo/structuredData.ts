import type {JsonLdValue} from './JsonLd.tsx'
import {canonicalPaths} from '../../shared/canonicalPaths.ts'
import {owner, services, shareImage, site} from '../../shared/siteIdentity.ts'
import {absoluteUrl, postPath} from '../../shared/siteUrls.ts'

/** Stable node ids, so the Home and Services graphs and every post refer to the same owner. */
const personId = (siteUrl: string) => `${absoluteUrl(siteUrl, '/')}#person`
const businessId = (siteUrl: string) => `${absoluteUrl(siteUrl, '/')}#business`

/**
 * Who the owner is as the site settings say (issue #37); each field falls back to today's
 * (shared/siteIdentity.ts), so a page without the settings describes her as before.
 */
export interface OwnerIdentity {
  siteName?: string
  name?: string
  jobTitle?: string
  region?: string
  /** Her profiles elsewhere (the settings' social links): schema.org `sameAs`. */
  sameAs?: string[]
  /** Her portrait, absolute. */
  portrait?: string
  /** The site's share image, absolute; the default share card otherwise. */
  image?: string
}

function person(siteUrl: string, identity: OwnerIdentity = {}) {
  return {
    '@type': 'Person',
    '@id': personId(siteUrl),
    name: identity.name ?? owner.name,
    url: absoluteUrl(siteUrl, '/'),
  }
}

/**
 * The owner and what they offer, for Home and Services: a schema.org `Person` and a
 * `ProfessionalService` (a LocalBusiness, so it carries a name, an address and an image, which
 * Google's business guidelines require) with its writing and editing services as offers.
 */
export function ownerGraph(siteUrl: string, identity: OwnerIdentity = {}): JsonLdValue {
  const offer = (name: string, category: string) => ({
    '@type': 'Offer',
    category,
    itemOffered: {
      '@type': 'Service',
      name,
      serviceType: name,
      provider: {'@id': businessId(siteUrl)},
    },
  })
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        ...person(siteUrl, identity),
        jobTitle: identity.jobTitle ?? owner.jobTitle,
        ...(identity.portrait ? {image: identity.portrait} : {}),
        ...(identity.sameAs?.length ? {sameAs: identity.sameAs} : {}),
        worksFor: {'@id': businessId(siteUrl)},
        knowsAbout: [...services.writing, ...services.editing],
      },
      {
        '@type': 'ProfessionalService',
        '@id': businessId(siteUrl),
        name: identity.siteName ?? site.name,
        description: site.description,
        url: absoluteUrl(siteUrl, '/'),
        image: identity.image ?? absoluteUrl(siteUrl, shareImage.path),
        address: {'@type': 'PostalAddress', addressRegion: identity.region ?? owner.region},
        areaServed: 'Worldwide',
        founder: {'@id': personId(siteUrl)},
        hasOfferCatalog: {
          '@type': 'OfferCatalog',
          name: 'Writing and editing services',
          url: absoluteUrl(siteUrl, canonicalPaths.services),
          itemListElement: [
            ...services.writing.map((name) => offer(name, 'Writing')),
            ...services.editing.map((name) => offer(name, 'Editing')),
          ],
        },
      },
    ],
  }
}

export interface PostForStructuredData {
  slug: string
  title: string
  /** The post's date (YYYY-MM-DD). */
  date: string
  /** The meta description: the derived excerpt. */
  description: string
  /** Last change (_updatedAt), when the page has it. */
  updatedAt?: string
  category?: string
  /** The post's cover as its share card (absolute URL); the site's share image otherwise. */
  image?: string
}

/** Google limits a BlogPosting headline to 110 characters. */
const headline = (title: string) => (title.length > 110 ? `${title.slice(0, 109)}…` : title)

/**
 * A post's `BlogPosting` and its `BreadcrumbList` (Home › Blog › post), as one JSON-LD graph.
 */
export function postGraph(siteUrl: string, post: PostForStructuredData): JsonLdValue {
  const url = absoluteUrl(siteUrl, postPath(post.slug))
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'BlogPosting',
        '@id': `${url}#article`,
        headline: headline(post.title),
        description: post.description,
        url,
        mainEntityOfPage: url,
        datePublished: post.date,
        dateModified: post.updatedAt ?? post.date,
        inLanguage: site.language,
        articleSection: post.category,
        image: post.image ?? absoluteUrl(siteUrl, shareImage.path),
        author: person(siteUrl),
        publisher: {
          '@id': businessId(siteUrl),
          '@type': 'Organization',
          name: site.name,
          url: absoluteUrl(siteUrl, '/'),
        },
      },
      {
        '@type': 'BreadcrumbList',
        itemListElement: [
          {
            '@type': 'ListItem',
            position: 1,
            name: 'Home',
            item: absoluteUrl(siteUrl, canonicalPaths.home),
          },
          {
            '@type': 'ListItem',
            position: 2,
            name: 'Blog',
            item: absoluteUrl(siteUrl, canonicalPaths.blog),
          },
          {'@type': 'ListItem', position: 3, name: post.title, item: url},
        ],
      },
    ],
  }
}
