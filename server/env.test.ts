import {describe, expect, it} from 'vitest'
import {localProjectId, readConfig} from './env.ts'

describe('readConfig', () => {
  it('defaults to the local lake on port 3000 with SITE_URL following the port', () => {
    const config = readConfig({})
    expect(config).toMatchObject({
      port: 3000,
      httpsPort: 3443,
      host: '127.0.0.1',
      seed: true,
      hostedProjectId: undefined,
      projectId: localProjectId,
      dataset: 'production',
      siteUrl: 'http://localhost:3000',
    })
  })

  it('switches to hosted mode when SANITY_STUDIO_PROJECT_ID is set', () => {
    const config = readConfig({
      SANITY_STUDIO_PROJECT_ID: 'abc123',
      SANITY_STUDIO_DATASET: 'staging',
    })
    expect(config.hostedProjectId).toBe('abc123')
    expect(config.projectId).toBe('abc123')
    expect(config.dataset).toBe('staging')
  })

  it('reads SEED=0, SITE_URL without trailing slash and rejects a bad port', () => {
    expect(readConfig({SEED: '0'}).seed).toBe(false)
    expect(readConfig({SITE_URL: 'https://writer.example/'}).siteUrl).toBe('https://writer.example')
    expect(() => readConfig({PORT: 'abc'})).toThrow(/PORT must be a port number/)
  })
})
