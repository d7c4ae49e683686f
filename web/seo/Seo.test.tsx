import {renderToStaticMarkup} from 'react-dom/server'
import {describe, expect, it} from 'vitest'
import {Seo} from './Seo.tsx'

const siteUrl = 'https://writer.example'

/** The @type of every node in every JSON-LD script of `html`. */
function jsonLdTypes(html: string): string[] {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
  return scripts.flatMap(([, json]) =>
    JSON.parse(json)['@graph'].map((node: {'@type': string}) => node['@type']),
  )
}

describe('Seo', () => {
  it('gives every page social tags and feed links, and no structured data of its own', () => {
    const html = renderToStaticMarkup(
      <Seo siteUrl={siteUrl} path="/contact" title="Contact" description="Say hello." />,
    )
    expect(html).toContain('<meta property="og:type" content="website"/>')
    expect(html).toContain('<meta property="og:url" content="https://writer.example/contact"/>')
    expect(html).toContain('<link rel="alternate" type="application/rss+xml"')
    expect(html).toContain('<link rel="alternate" type="application/atom+xml"')
    expect(jsonLdTypes(html)).toEqual([])
  })

  it('adds the owner and the services on Home and Services', () => {
    const html = renderToStaticMarkup(
      <Seo siteUrl={siteUrl} path="/" title="Home" description="Hi." owner />,
    )
    expect(jsonLdTypes(html)).toEqual(['Person', 'ProfessionalService'])
  })

  it('makes a post an article with its date, a BlogPosting and breadcrumbs', () => {
    const post = {slug: 'kolahoi', title: 'Kolahoi', date: '2024-06-10', category: 'Mountaineering'}
    const html = renderToStaticMarkup(
      <Seo
        siteUrl={siteUrl}
        path="/blog/kolahoi"
        title="Kolahoi"
        description="An excerpt."
        post={post}
      />,
    )
    expect(html).toContain('<meta property="og:type" content="article"/>')
    expect(html).toContain('<meta property="article:published_time" content="2024-06-10"/>')
    expect(html).toContain('<meta property="og:description" content="An excerpt."/>')
    expect(jsonLdTypes(html)).toEqual(['BlogPosting', 'BreadcrumbList'])
  })
})
