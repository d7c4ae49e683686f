import {describe, expect, it} from 'vitest'
import {resolveSiteConfig} from '../../shared/siteConfig.ts'
import {
  altOf,
  croppedSize,
  imageBuilder,
  responsiveImage,
  shareImageUrl,
  type ShownImage,
} from '../../shared/imageUrl.ts'

const local = resolveSiteConfig({siteUrl: 'https://writer.example'})
const hosted = resolveSiteConfig({siteUrl: 'https://writer.example', hostedProjectId: 'abc123'})
const sha1 = '5d466ac65c5b08663c93e07c1e6c5653325b3aca'
const image = (extra: Partial<ShownImage> = {}): ShownImage => ({
  asset: {_id: `image-${sha1}-1600x1000-jpg`, metadata: {lqip: 'data:image/jpeg;base64,x'}},
  alt: 'Leaves',
  ...extra,
})
const params = (url: string) => Object.fromEntries(new URL(url, 'https://x.example').searchParams)

describe('image URLs (one helper, both modes)', () => {
  it('are root-relative on the lake in local mode, absolute when asked, cdn.sanity.io in hosted mode', () => {
    expect(imageBuilder(local).image(image()).width(100).url()).toBe(
      `/images/scriptorium/production/${sha1}-1600x1000.jpg?w=100`,
    )
    expect(imageBuilder(local, true).image(image()).url()).toBe(
      `https://writer.example/images/scriptorium/production/${sha1}-1600x1000.jpg`,
    )
    expect(imageBuilder(hosted).image(image()).url()).toBe(
      `https://cdn.sanity.io/images/abc123/production/${sha1}-1600x1000.jpg`,
    )
  })

  it('srcset: 3–5 widths, none wider than the crop, the crop as rect, WebP/AVIF by auto=format', () => {
    const crop = {top: 0.1, bottom: 0.1, left: 0.25, right: 0}
    const built = responsiveImage(imageBuilder(local), image({crop}), {defaultWidth: 720})
    expect(croppedSize(image({crop}))).toEqual({width: 1200, height: 800})
    const candidates = built.srcSet.split(', ').map((entry) => entry.split(' '))
    expect(candidates.map(([, width]) => width)).toEqual(['480w', '720w', '960w', '1200w'])
    for (const [url, width] of candidates) {
      expect(params(url)).toEqual({
        rect: '400,100,1200,800',
        w: String(parseInt(width)),
        fit: 'max',
        auto: 'format',
      })
    }
    expect(built).toMatchObject({width: 720, height: 480})
    expect(params(built.src).w).toBe('720')
  })

  it('a small image is never offered wider than it is', () => {
    const small = image({asset: {_id: `image-${sha1}-500x300-png`}})
    const built = responsiveImage(imageBuilder(local), small, {defaultWidth: 720})
    expect(built.srcSet.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['480w', '500w'])
    expect(built).toMatchObject({width: 500, height: 300})
  })

  it('a fixed aspect crops around the hotspot, in the attributes and the URLs alike', () => {
    const hotspot = {x: 0.8, y: 0.5, width: 0.2, height: 0.2}
    const built = responsiveImage(imageBuilder(local), image({hotspot}), {
      defaultWidth: 480,
      aspect: 16 / 9,
    })
    expect(built).toMatchObject({width: 480, height: 270})
    const p = params(built.src)
    expect(p).toMatchObject({w: '480', h: '270', fit: 'crop', auto: 'format'})
    const [left, top, width, height] = p.rect.split(',').map(Number)
    expect(Math.abs(width / height - 16 / 9)).toBeLessThan(0.01)
    // Centred on the hotspot (x 0.8 of 1600 = 1280) as far as the image allows.
    expect(left + width).toBe(1600)
    expect(top).toBe(50)
  })

  it('the share card is a 1200×630 JPEG around the hotspot, absolute in both modes', () => {
    const url = shareImageUrl(local, image())
    expect(url.startsWith('https://writer.example/images/')).toBe(true)
    expect(params(url)).toEqual({
      rect: '0,80,1600,840',
      w: '1200',
      h: '630',
      fm: 'jpg',
      q: '80',
      fit: 'crop',
    })
    expect(shareImageUrl(hosted, image()).startsWith('https://cdn.sanity.io/images/abc123/')).toBe(
      true,
    )
  })

  it('alt is the owner’s text, and empty for a decorative image', () => {
    expect(altOf(image())).toBe('Leaves')
    expect(altOf(image({decorative: true}))).toBe('')
    expect(altOf(image({alt: null}))).toBe('')
  })
})
