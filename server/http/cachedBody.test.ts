import {brotliDecompressSync} from 'node:zlib'
import {describe, expect, it} from 'vitest'
import {CachedBody, matchesEtag} from './cachedBody.ts'

const text = '<p>hello</p>'.repeat(100)

describe('the cached-body helper', () => {
  it('matches If-None-Match lists, * and weak tags', () => {
    expect(matchesEtag('"a", "b"', '"b"')).toBe(true)
    expect(matchesEtag('*', '"b"')).toBe(true)
    expect(matchesEtag('W/"b"', '"b"')).toBe(true)
    expect(matchesEtag('"c"', '"b"')).toBe(false)
    expect(matchesEtag(undefined, '"b"')).toBe(false)
  })

  it('answers 200 in the accepted encoding, with its ETag and Vary', async () => {
    const body = new CachedBody(Buffer.from(text))
    const res = body.respond({acceptEncoding: 'gzip, br'}, 200, {'content-type': 'text/html'})
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe(body.etag)
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    expect(res.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(text)
  })

  it('answers 304 with no body when the client holds it, and never for another status', async () => {
    const body = new CachedBody(Buffer.from(text))
    const fresh = body.respond({ifNoneMatch: body.etag}, 200, {})
    expect(fresh.status).toBe(304)
    expect(fresh.headers.get('etag')).toBe(body.etag)
    expect(await fresh.text()).toBe('')
    expect(body.respond({ifNoneMatch: body.etag}, 404, {}).status).toBe(404)
  })

  it('with compress off: sent as it is, no Vary; its own ETag; HEAD has no body', async () => {
    const body = new CachedBody(Buffer.from('{"result":1}'), {etag: '"7-x"', compress: false})
    const res = body.respond({acceptEncoding: 'br', head: true}, 200, {})
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
    expect(res.headers.get('etag')).toBe('"7-x"')
    expect(await res.text()).toBe('')
    expect(await body.respond({}, 200, {}).text()).toBe('{"result":1}')
  })
})
