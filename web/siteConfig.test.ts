import {describe, expect, it} from 'vitest'
import {resolveSiteConfig, siteClientConfig} from '../shared/siteConfig.ts'
import {createSiteClient} from './sanity.client.ts'

describe('site config resolution', () => {
  it('defaults to the local lake, the local relay and the spec constants', () => {
    const site = resolveSiteConfig({siteUrl: 'http://localhost:3000/'})
    expect(site).toEqual({
      mode: 'local',
      projectId: 'scriptorium',
      dataset: 'production',
      apiVersion: '2023-07-29',
      siteUrl: 'http://localhost:3000',
      contactAction: '/api/contact',
      editingSamplesUrl: 'https://docs.google.com/document/d/editing-samples',
      subscribeAction: null,
      socialWeb: true,
    })
    expect(resolveSiteConfig({siteUrl: 'http://x', subscriptions: true}).subscribeAction).toBe(
      '/api/subscribe',
    )
    expect(siteClientConfig(site, 'http://127.0.0.1:4000')).toEqual({
      projectId: 'scriptorium',
      dataset: 'production',
      apiVersion: '2023-07-29',
      useCdn: true,
      apiHost: 'http://127.0.0.1:4000',
      useProjectHostname: false,
    })
  })

  it('local mode: the client talks to the given origin without a project hostname', () => {
    const client = createSiteClient(
      resolveSiteConfig({siteUrl: 'http://x'}),
      'http://127.0.0.1:4000',
    )
    const config = client.config()
    expect(config.url).toBe('http://127.0.0.1:4000/v2023-07-29')
    expect(config.cdnUrl).toBe('http://127.0.0.1:4000/v2023-07-29')
    expect(config.token).toBeUndefined()
  })

  it('hosted mode: SANITY_STUDIO_PROJECT_ID points the client at sanity.io with the CDN', () => {
    const site = resolveSiteConfig({
      hostedProjectId: 'abc123',
      siteUrl: 'https://writer.example',
      contactAction: 'https://formsubmit.co/owner@example.com',
      editingSamplesUrl: 'https://example.com/samples',
    })
    expect(site.mode).toBe('hosted')
    expect(site.contactAction).toBe('https://formsubmit.co/owner@example.com')
    expect(siteClientConfig(site, 'http://127.0.0.1:4000')).toEqual({
      projectId: 'abc123',
      dataset: 'production',
      apiVersion: '2023-07-29',
      useCdn: true,
    })
    const config = createSiteClient(site, 'http://ignored').config()
    expect(config.url).toBe('https://abc123.api.sanity.io/v2023-07-29')
    expect(config.cdnUrl).toBe('https://abc123.apicdn.sanity.io/v2023-07-29')
  })
})
