import {describe, expect, it} from 'vitest'
import {
  boundedParams,
  cheapFormat,
  maxOutputPixels,
  maxOutputSide,
  parseImageParams,
  variantKey,
} from './imageParams.ts'

const source = {width: 1600, height: 1200}
const bounded = (query: Record<string, string>) => boundedParams(parseImageParams(query), source)

describe('auto=format', () => {
  it('chooses AVIF, then WebP, from the Accept header; an explicit fm wins', () => {
    const auto = (accept: string, fm?: string) =>
      parseImageParams({w: '100', auto: 'format', ...(fm ? {fm} : {})}, accept).format
    expect(auto('image/avif,image/webp,image/apng,*/*;q=0.8')).toBe('avif')
    expect(auto('image/webp,*/*')).toBe('webp')
    expect(auto('image/png,*/*')).toBeUndefined()
    expect(auto('image/avif,*/*', 'jpg')).toBe('jpg')
    expect(() => parseImageParams({fm: 'avif'})).toThrow('"fm" must be one of')
  })

  it('serves AVIF up to 1280 × 800 output pixels, WebP past it', () => {
    const cover = {width: 1600, height: 1000}
    const format = (w: string) =>
      cheapFormat(boundedParams(parseImageParams({w, auto: 'format'}, 'image/avif'), cover), cover)
    expect(format('1280')).toBe('avif')
    expect(format('1600')).toBe('webp')
    expect(cheapFormat(parseImageParams({w: '1600', fm: 'png'}), source)).toBe('png')
  })
})

describe('boundedParams', () => {
  it('leaves requests within the caps as they are', () => {
    expect(bounded({w: '800', h: '600', fit: 'crop'})).toMatchObject({width: 800, height: 600})
    expect(bounded({w: '2000'})).toMatchObject({width: 2000, height: undefined})
  })

  it('shrinks the box by one factor, so the fit frames the same', () => {
    const crop = bounded({w: '8192', h: '4096', fit: 'crop'})
    expect(crop.width! / crop.height!).toBeCloseTo(2, 2)
    expect(Math.max(crop.width!, crop.height!)).toBeLessThanOrEqual(maxOutputSide)
    expect(crop.width! * crop.height!).toBeLessThanOrEqual(maxOutputPixels)
  })

  it('shrinks from the source for fits that never enlarge, and clamps a format-only request', () => {
    expect(bounded({w: '8192', fit: 'max'})).toMatchObject({width: 8192})
    const huge = {width: 8000, height: 6000}
    const max = boundedParams(parseImageParams({w: '8192', fit: 'max'}), huge)
    expect(max.width! * ((max.width! * 6000) / 8000)).toBeLessThanOrEqual(maxOutputPixels)
    const formatOnly = boundedParams(parseImageParams({fm: 'png'}), huge)
    expect(formatOnly.width).toBeLessThanOrEqual(maxOutputSide)
  })

  it('clips rect to the image and refuses one wholly outside it', () => {
    expect(bounded({rect: '1500,1100,500,500', w: '10'}).rect).toEqual({
      left: 1500,
      top: 1100,
      width: 100,
      height: 100,
    })
    expect(() => bounded({rect: '2000,0,10,10'})).toThrow(/outside/)
  })
})

describe('variantKey', () => {
  const key = (query: Record<string, string>) => {
    const params = parseImageParams(query)
    return variantKey('f.jpg', params, params.format ?? 'jpg')
  }

  it('is the same for URLs that render the same bytes', () => {
    expect(key({w: '100', q: '71'})).toBe(key({q: '70', w: '100'}))
    expect(key({w: '100', fm: 'png', q: '10'})).toBe(key({w: '100', fm: 'png', q: '90'}))
    expect(key({fm: 'webp', fit: 'crop'})).toBe(key({fm: 'webp', fit: 'max'}))
  })

  it('differs when the output differs', () => {
    expect(key({w: '100', q: '70'})).not.toBe(key({w: '100', q: '80'}))
    expect(key({w: '100', h: '50', fit: 'crop'})).not.toBe(key({w: '100', h: '50', fit: 'clip'}))
  })
})
