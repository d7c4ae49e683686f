import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {request as httpsRequest} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {loadOrCreateCertificate} from '../tls.ts'
import {pageContentSecurityPolicy, scriptHash} from './securityHeaders.ts'

describe('the pages’ Content-Security-Policy', () => {
  const local = {
    mode: 'local' as const,
    projectId: 'scriptorium',
    siteUrl: 'https://writer.example',
    contactAction: '/api/contact',
  }

  it('allows scripts by hash and from our origin only', () => {
    const csp = pageContentSecurityPolicy(local, [scriptHash('boot()')])
    expect(csp).toContain(`script-src 'self' 'sha256-`)
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    for (const directive of [
      "default-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      "img-src 'self' https://writer.example data:",
      "connect-src 'self' https://writer.example",
      "form-action 'self' https://writer.example",
    ])
      expect(csp).toContain(directive)
  })

  it('hashes the exact script text as CSP Level 2 does (base64 SHA-256)', () => {
    // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
    expect(scriptHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='")
  })

  it('adds the sanity.io origins in hosted mode and the CONTACT_ACTION origin', () => {
    const csp = pageContentSecurityPolicy(
      {
        ...local,
        mode: 'hosted',
        projectId: 'abc123',
        contactAction: 'https://formsubmit.co/ajax/me@example.com',
      },
      [],
    )
    expect(csp).toContain('https://abc123.apicdn.sanity.io https://abc123.api.sanity.io')
    expect(csp).toMatch(/img-src [^;]*https:\/\/cdn\.sanity\.io/)
    expect(csp).toMatch(/form-action [^;]*https:\/\/formsubmit\.co/)
    expect(csp).toMatch(/connect-src [^;]*https:\/\/formsubmit\.co/)
  })
})

function httpsHeaders(url: string, ca: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${url}/v2023-07-29/data/query/production?query=1`, {ca}, (res) => {
      res.resume()
      resolve(res.headers)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('HSTS', () => {
  const certDir = mkdtempSync(join(tmpdir(), 'scriptorium-cert-'))
  afterAll(() => rmSync(certDir, {recursive: true, force: true}))

  it('is sent over HTTPS when TLS_CERT is configured', async () => {
    const {certFile} = await loadOrCreateCertificate(certDir, {})
    const server = await startTestServer({
      SEED: '0',
      TLS_CERT: certFile,
      TLS_KEY: join(certDir, 'localhost-key.pem'),
    })
    try {
      const headers = await httpsHeaders(server.httpsUrl, readFileSync(certFile, 'utf8'))
      expect(headers['strict-transport-security']).toBe('max-age=31536000')
      const plain = await fetch(`${server.url}/v2023-07-29/data/query/production?query=1`)
      expect(plain.headers.get('strict-transport-security')).toBeNull()
    } finally {
      await server.stop()
    }
  })

  it('is not sent for the self-signed localhost default', async () => {
    const server = await startTestServer({SEED: '0'})
    try {
      const ca = readFileSync(join(server.dataDir, 'localhost-cert.pem'), 'utf8')
      const headers = await httpsHeaders(server.httpsUrl, ca)
      expect(headers['strict-transport-security']).toBeUndefined()
    } finally {
      await server.stop()
    }
  })

  it('is sent when a trusted proxy says the request was HTTPS, and only then', async () => {
    const trusting = await startTestServer({SEED: '0', TRUST_PROXY: 'loopback'})
    const untrusting = await startTestServer({SEED: '0'})
    try {
      const init = {headers: {'x-forwarded-proto': 'https'}}
      const path = '/v2023-07-29/data/query/production?query=1'
      const proxied = await fetch(`${trusting.url}${path}`, init)
      expect(proxied.headers.get('strict-transport-security')).toBe('max-age=31536000')
      const forged = await fetch(`${untrusting.url}${path}`, init)
      expect(forged.headers.get('strict-transport-security')).toBeNull()
    } finally {
      await Promise.all([trusting.stop(), untrusting.stop()])
    }
  })
})
