import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {brotliCompressSync, gunzipSync, gzipSync} from 'node:zlib'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterAll, describe, expect, it} from 'vitest'
import {serveStudio} from './static.ts'

describe('serving the built Studio', () => {
  const dist = mkdtempSync(join(tmpdir(), 'studio-dist-'))
  mkdirSync(join(dist, 'assets'))
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><meta name="robots" content="noindex"><div id="sanity"></div>',
  )
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)')
  // The forms the build writes beside each chunk (web/vite.precompress.ts); one has only gzip.
  writeFileSync(join(dist, 'assets', 'big-abc.js'), 'x'.repeat(10_000))
  writeFileSync(join(dist, 'assets', 'big-abc.js.br'), brotliCompressSync('x'.repeat(10_000)))
  writeFileSync(join(dist, 'assets', 'big-abc.js.gz'), gzipSync('x'.repeat(10_000)))
  writeFileSync(join(dist, 'assets', 'gz-abc.css'), 'a{}')
  writeFileSync(join(dist, 'assets', 'gz-abc.css.gz'), gzipSync('a{}'))
  writeFileSync(join(dist, '..', 'secret.txt'), 'no')
  const app = new Hono()
  app.get('/studio/*', (c) => serveStudio(c, {distDir: dist, policy: "script-src 'self'"}))
  afterAll(() => rmSync(dist, {recursive: true, force: true}))

  it('serves hashed assets with a long cache and noindex', async () => {
    const res = await app.request('/studio/assets/index-abc.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect(res.headers.get('x-robots-tag')).toContain('noindex')
  })

  it('sends the precompressed form the browser prefers, and the plain file otherwise', async () => {
    const get = (path: string, acceptEncoding?: string) =>
      app.request(path, {headers: acceptEncoding ? {'accept-encoding': acceptEncoding} : {}})
    const br = await get('/studio/assets/big-abc.js', 'gzip, deflate, br, zstd')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(Buffer.from(await br.arrayBuffer()).length).toBeLessThan(100)
    const gz = await get('/studio/assets/big-abc.js', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe('x'.repeat(10_000))
    const plain = await get('/studio/assets/big-abc.js')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe('x'.repeat(10_000))
    const refused = await get('/studio/assets/big-abc.js', 'br;q=0, gzip;q=0')
    expect(refused.headers.get('content-encoding')).toBeNull()
    // Brotli preferred but not built: the plain file, never a mislabelled body.
    const noBr = await get('/studio/assets/gz-abc.css', 'br')
    expect(noBr.headers.get('content-encoding')).toBeNull()
    expect(await noBr.text()).toBe('a{}')
  })

  it('falls back to index.html for Studio routes, and 404s missing assets', async () => {
    const page = await app.request('/studio/structure/posts;abc')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('id="sanity"')
    expect(page.headers.get('x-robots-tag')).toContain('noindex')
    expect((await app.request('/studio/assets/missing.js')).status).toBe(404)
  })

  it('a malformed escape is a 400, and %25 is just a Studio route', async () => {
    const bad = await app.request('/studio/%')
    expect(bad.status).toBe(400)
    expect((await app.request('/studio/%E0%A4%A')).status).toBe(400)
    expect((await app.request('/studio/%25')).status).toBe(200)
  })

  it('no other site may frame the Studio, and nothing is sniffed', async () => {
    for (const path of ['/studio/', '/studio/structure', '/studio/assets/index-abc.js']) {
      const res = await app.request(path)
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN')
      expect(res.headers.get('content-security-policy'), path).toMatch(
        path.includes('assets') ? /^frame-ancestors 'self'$/ : /^script-src 'self'$/,
      )
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
  })

  it('never leaves the dist directory', async () => {
    const res = await app.request('/studio/assets/..%2F..%2Fsecret.txt')
    expect(await res.text()).not.toBe('no')
  })
})
