import {randomBytes} from 'node:crypto'
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

  it('turns the HTTPS listener off with HTTPS_PORT=off; 0 still means a free port', () => {
    expect(readConfig({HTTPS_PORT: 'off'})).toMatchObject({httpsListener: false})
    expect(readConfig({HTTPS_PORT: '0'})).toMatchObject({httpsListener: true, httpsPort: 0})
    expect(readConfig({})).toMatchObject({httpsListener: true, httpsPort: 3443})
  })
})

describe('readConfig: process roles', () => {
  it('one process does everything by default; SERVE_SITE=0 is a content process', () => {
    expect(readConfig({})).toMatchObject({serveSite: true, lakeUrl: undefined})
    expect(readConfig({SERVE_SITE: '0'})).toMatchObject({serveSite: false, lakeUrl: undefined})
  })

  it('LAKE_URL makes a site process without HTTPS; a bad or conflicting one is refused', () => {
    expect(readConfig({LAKE_URL: 'http://10.0.0.2:3000/', HTTPS_PORT: '0'})).toMatchObject({
      serveSite: true,
      lakeUrl: 'http://10.0.0.2:3000',
      httpsListener: false,
    })
    for (const bad of ['10.0.0.2:3000', 'ftp://x', 'http://x/path', 'http://x/?q=1'])
      expect(() => readConfig({LAKE_URL: bad}), bad).toThrow(/LAKE_URL must be an http/)
    expect(() => readConfig({LAKE_URL: 'http://x', SERVE_SITE: '0'})).toThrow(/exclude/)
    expect(() => readConfig({LAKE_URL: 'http://x', SANITY_STUDIO_PROJECT_ID: 'abc'})).toThrow(
      /exclude/,
    )
    expect(() => readConfig({SITE_READ_TOKEN: 'short'})).toThrow(/SITE_READ_TOKEN/)
  })
})

describe('readConfig: hardening settings', () => {
  it('refuses a LAKE_TOKEN shorter than 32 characters, with a message saying why', () => {
    expect(() => readConfig({LAKE_TOKEN: 'short'})).toThrow(/LAKE_TOKEN is shorter than 32/)
    const random = randomBytes(16).toString('hex')
    expect(readConfig({LAKE_TOKEN: random}).lakeToken).toBe(random)
  })

  it('refuses a low-entropy LAKE_TOKEN of any length (security review 2, finding 8)', () => {
    for (const weak of [
      'a'.repeat(32),
      'password'.repeat(4),
      'abcdefghijklmnopqrstuvwxyz0123456789',
      'aabbccddeeffgghhiijjkkllmmnnooppqq',
    ])
      expect(() => readConfig({LAKE_TOKEN: weak}), weak).toThrow(/LAKE_TOKEN .*random characters/)
    // Random tokens of every usual shape pass, every time.
    for (let i = 0; i < 200; i++) {
      for (const strong of [
        randomBytes(16).toString('hex'),
        randomBytes(24).toString('base64url'),
        randomBytes(40).toString('hex'),
      ])
        expect(readConfig({LAKE_TOKEN: strong}).lakeToken).toBe(strong)
    }
  })

  it('refuses a dictionary passphrase: under 128 bits to a guesser (security review 3, L3)', () => {
    for (const phrase of [
      'correct horse battery staple 2026',
      'Correct-Horse-Battery-Staple-2026!',
      'My cat likes long walks in the park!',
    ])
      expect(() => readConfig({LAKE_TOKEN: phrase}), phrase).toThrow(
        /LAKE_TOKEN is worth about \d+ bits to a guesser, under 128/,
      )
    // The token the lake generates (server/lake/auth.ts), a long random passphrase and the
    // tests' own fixed tokens pass.
    for (const strong of [
      `sk${randomBytes(32).toString('base64url')}`,
      'plaid vortex quench mulberry zephyr crimson oblique tundra',
      'releases-restart-test-token-0123456789abcdef',
    ])
      expect(readConfig({LAKE_TOKEN: strong}).lakeToken).toBe(strong)
  })

  it('reads TRUST_PROXY, ALLOWED_HOSTS and the session lifetimes, with safe defaults', () => {
    const defaults = readConfig({})
    expect(defaults).toMatchObject({
      trustProxy: 'none',
      allowedHosts: [],
      sessionIdleMs: 168 * 3_600_000,
      sessionMaxMs: 30 * 86_400_000,
    })
    const set = readConfig({
      TRUST_PROXY: 'loopback',
      ALLOWED_HOSTS: 'Writer.example, www.writer.example',
      SESSION_IDLE_HOURS: '0.5',
      SESSION_MAX_DAYS: '2',
    })
    expect(set).toMatchObject({
      trustProxy: 'loopback',
      allowedHosts: ['writer.example', 'www.writer.example'],
      sessionIdleMs: 1_800_000,
      sessionMaxMs: 2 * 86_400_000,
    })
    expect(() => readConfig({TRUST_PROXY: 'all'})).toThrow(/TRUST_PROXY/)
    expect(() => readConfig({SESSION_IDLE_HOURS: '-1'})).toThrow(/SESSION_IDLE_HOURS/)
  })
})
