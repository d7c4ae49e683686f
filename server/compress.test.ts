import {brotliDecompressSync, gunzipSync} from 'node:zlib'
import {describe, expect, it} from 'vitest'
import {CompressedBody, negotiate} from './compress.ts'

describe('compression', () => {
  it('negotiates brotli, then gzip, honouring q=0', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br')
    expect(negotiate('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(negotiate('deflate')).toBe('identity')
    expect(negotiate(undefined)).toBe('identity')
  })

  it('compresses once and round-trips', () => {
    const body = new CompressedBody(Buffer.from('<p>hello</p>'.repeat(100)), 5)
    expect(brotliDecompressSync(body.get('br')).toString()).toBe('<p>hello</p>'.repeat(100))
    expect(gunzipSync(body.get('gzip')).toString()).toBe('<p>hello</p>'.repeat(100))
    expect(body.get('br')).toBe(body.get('br'))
    expect(body.get('identity')).toBe(body.raw)
  })
})
