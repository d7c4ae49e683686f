import {renderToStaticMarkup} from 'react-dom/server'
import {describe, expect, it} from 'vitest'
import {FeedLinks} from './FeedLinks.tsx'
import {SocialMeta} from './SocialMeta.tsx'

/** The content of each <meta> by property or name, from React's serialization of them. */
function metaContent(html: string): Record<string, string> {
  const tags = html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"\/>/g)
  return Object.fromEntries(
    [...tags].map(([, key, content]) => [key, content.replaceAll('&amp;', '&')]),
  )
}

const siteUrl = 'https://writer.example'

describe('SocialMeta', () => {
  it('describes an ordinary page as a website, with the default share image', () => {
    const meta = metaContent(
      renderToStaticMarkup(
        <SocialMeta
          siteUrl={siteUrl}
          path="/services"
          title="Services"
          description="What I offer."
        />,
      ),
    )
    expect(meta).toEqual({
      'og:site_name': 'Zoya Mir — Writer & Editor',
      'og:locale': 'en_GB',
      'og:type': 'website',
      'og:title': 'Services',
      'og:description': 'What I offer.',
      'og:url': 'https://writer.example/services',
      'og:image': 'https://writer.example/share.png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': expect.stringContaining('Zoya Mir'),
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Services',
      'twitter:description': 'What I offer.',
      'twitter:image': 'https://writer.example/share.png',
      'twitter:image:alt': expect.stringContaining('Zoya Mir'),
    })
  })

  it('describes a post as an article with its dates and section', () => {
    const html = renderToStaticMarkup(
      <SocialMeta
        siteUrl={siteUrl}
        path="/blog/kolahoi"
        title="Kolahoi & back"
        description="An excerpt."
        type="article"
        publishedTime="2024-06-10"
        modifiedTime="2024-06-11T08:00:00Z"
        section="Mountaineering"
      />,
    )
    const meta = metaContent(html)
    expect(meta['og:type']).toBe('article')
    expect(meta['og:title']).toBe('Kolahoi & back')
    expect(meta['article:published_time']).toBe('2024-06-10')
    expect(meta['article:modified_time']).toBe('2024-06-11T08:00:00Z')
    expect(meta['article:section']).toBe('Mountaineering')
    expect(meta['og:url']).toBe('https://writer.example/blog/kolahoi')
  })

  it('leaves article tags off ordinary pages', () => {
    const html = renderToStaticMarkup(
      <SocialMeta
        siteUrl={siteUrl}
        path="/"
        title="Home"
        description="Hi."
        publishedTime="2024-06-10"
      />,
    )
    expect(html).not.toContain('article:')
  })
})

describe('FeedLinks', () => {
  it('points at both feeds with absolute URLs', () => {
    expect(renderToStaticMarkup(<FeedLinks siteUrl={siteUrl} />)).toBe(
      '<link rel="alternate" type="application/rss+xml" title="Zoya Mir — Blog (RSS)" href="https://writer.example/rss.xml"/>' +
        '<link rel="alternate" type="application/atom+xml" title="Zoya Mir — Blog (Atom)" href="https://writer.example/atom.xml"/>',
    )
  })
})
