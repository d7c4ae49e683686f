import {renderToStaticMarkup} from 'react-dom/server'
import {describe, expect, it} from 'vitest'
import {resolveSiteConfig, type SiteConfig} from '../../shared/siteConfig.ts'
import {SiteConfigContext} from '../components/siteConfigContext.ts'
import {SocialWebLinks} from './SocialWebLinks.tsx'

const siteUrl = 'https://writer.example'

const render = (site: SiteConfig, postPath?: string) =>
  renderToStaticMarkup(
    <SiteConfigContext value={site}>
      <SocialWebLinks {...(postPath ? {postPath} : {})} />
    </SiteConfigContext>,
  )

describe('SocialWebLinks', () => {
  it('links the actor (rel="me") and a post’s Article with the local lake', () => {
    const site = resolveSiteConfig({siteUrl})
    expect(render(site)).toBe(
      '<link rel="alternate" type="application/activity+json" href="https://writer.example/social/site"/><link rel="me" href="https://writer.example/social/site"/>',
    )
    expect(render(site, '/blog/a-post')).toBe(
      '<link rel="alternate" type="application/activity+json" href="https://writer.example/blog/a-post"/>',
    )
  })

  it('links them in hosted mode only when the server is on the social web (a write token)', () => {
    const off = resolveSiteConfig({siteUrl, hostedProjectId: 'abc123'})
    expect(render(off)).toBe('')
    expect(render(off, '/blog/a-post')).toBe('')
    const on = resolveSiteConfig({siteUrl, hostedProjectId: 'abc123', socialWeb: true})
    expect(render(on)).toContain('<link rel="me" href="https://writer.example/social/site"/>')
    expect(render(on, '/blog/a-post')).toContain('href="https://writer.example/blog/a-post"')
  })
})
