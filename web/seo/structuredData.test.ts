import {describe, expect, it} from 'vitest'
import {ownerGraph, postGraph} from './structuredData.ts'

const siteUrl = 'https://writer.example'

/** The nodes of a JSON-LD graph, by @type, after a JSON round trip (what a crawler parses). */
function nodes(data: unknown): Map<string, Record<string, unknown>> {
  const parsed = JSON.parse(JSON.stringify(data))
  expect(parsed['@context']).toBe('https://schema.org')
  return new Map(parsed['@graph'].map((node: Record<string, unknown>) => [node['@type'], node]))
}

describe('ownerGraph (Home, Services)', () => {
  it('describes the owner as the site settings say: name, portrait, profiles, share image (issue #37)', () => {
    const graph = nodes(
      ownerGraph(siteUrl, {
        siteName: 'Ada Writer — Editor',
        name: 'Ada Writer',
        jobTitle: 'Editor',
        region: 'Lisbon',
        sameAs: ['https://social.example/@ada'],
        portrait: 'https://cdn.example/portrait.jpg',
        image: 'https://cdn.example/share.jpg',
      }),
    )
    expect(graph.get('Person')).toMatchObject({
      name: 'Ada Writer',
      jobTitle: 'Editor',
      image: 'https://cdn.example/portrait.jpg',
      sameAs: ['https://social.example/@ada'],
    })
    expect(graph.get('ProfessionalService')).toMatchObject({
      name: 'Ada Writer — Editor',
      image: 'https://cdn.example/share.jpg',
      address: {addressRegion: 'Lisbon'},
    })
  })

  it('describes the owner as a Person and the business as a ProfessionalService with its services', () => {
    const graph = nodes(ownerGraph(siteUrl))
    const person = graph.get('Person')
    expect(person).toMatchObject({
      name: 'Zoya Mir',
      url: `${siteUrl}/`,
      jobTitle: 'Writer & Editor',
    })
    const business = graph.get('ProfessionalService')
    expect(business).toMatchObject({
      name: 'Zoya Mir — Writer & Editor',
      url: `${siteUrl}/`,
      image: `${siteUrl}/share.png`,
      address: {'@type': 'PostalAddress', addressRegion: 'Kashmir'},
      founder: {'@id': person?.['@id']},
    })
    const catalog = business?.hasOfferCatalog as {
      url: string
      itemListElement: Array<{itemOffered: {name: string}}>
    }
    expect(catalog.url).toBe(`${siteUrl}/services`)
    expect(catalog.itemListElement.map((offer) => offer.itemOffered.name)).toEqual([
      'Ghostwriting',
      'Creative pieces',
      'Guest posts',
      'Website content',
      'Blog posts',
      'Developmental editing',
      'Line editing',
      'Copy editing',
      'Proofreading',
    ])
  })
})

describe('postGraph (a post)', () => {
  const post = {
    slug: 'kolahoi',
    title: 'Kolahoi, north face',
    date: '2024-06-10',
    description: 'An excerpt.',
    updatedAt: '2024-06-11T08:00:00Z',
    category: 'Mountaineering',
  }

  it('has a BlogPosting with the fields Google asks for', () => {
    const posting = nodes(postGraph(siteUrl, post)).get('BlogPosting')
    expect(posting).toMatchObject({
      headline: 'Kolahoi, north face',
      description: 'An excerpt.',
      url: `${siteUrl}/blog/kolahoi`,
      mainEntityOfPage: `${siteUrl}/blog/kolahoi`,
      datePublished: '2024-06-10',
      dateModified: '2024-06-11T08:00:00Z',
      image: `${siteUrl}/share.png`,
      articleSection: 'Mountaineering',
      author: {'@type': 'Person', name: 'Zoya Mir', url: `${siteUrl}/`},
    })
  })

  it('has a BreadcrumbList Home › Blog › post with positions and absolute items', () => {
    const breadcrumbs = nodes(postGraph(siteUrl, post)).get('BreadcrumbList')
    expect(breadcrumbs?.itemListElement).toEqual([
      {'@type': 'ListItem', position: 1, name: 'Home', item: `${siteUrl}/`},
      {'@type': 'ListItem', position: 2, name: 'Blog', item: `${siteUrl}/blog`},
      {
        '@type': 'ListItem',
        position: 3,
        name: 'Kolahoi, north face',
        item: `${siteUrl}/blog/kolahoi`,
      },
    ])
  })

  it('shortens a headline past 110 characters and falls back to the date when no change is known', () => {
    const long = 'x'.repeat(150)
    const posting = nodes(postGraph(siteUrl, {...post, title: long, updatedAt: undefined})).get(
      'BlogPosting',
    )
    expect(String(posting?.headline)).toHaveLength(110)
    expect(posting?.dateModified).toBe('2024-06-10')
  })
})
