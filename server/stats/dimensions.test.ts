import {describe, expect, it} from 'vitest'
import {canonicalPath, campaign, clip, referrerHost} from './dimensions.ts'
import {userAgents} from './testing.ts'
import {browserFamily, deviceClass, feedSubscribers} from './userAgent.ts'

describe("a view's dimensions", () => {
  it('classes devices and browser families', () => {
    expect(deviceClass(userAgents.iPhoneSafari)).toBe('phone')
    expect(deviceClass(userAgents.androidFirefox)).toBe('phone')
    expect(deviceClass('Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) Safari/604.1')).toBe('tablet')
    expect(deviceClass('Mozilla/5.0 (Linux; Android 14; SM-X710) Chrome/131.0 Safari/537.36')).toBe(
      'tablet',
    )
    expect(deviceClass(userAgents.windowsChrome)).toBe('desktop')
    expect(browserFamily(userAgents.iPhoneSafari)).toBe('Safari')
    expect(browserFamily(userAgents.windowsChrome)).toBe('Chrome')
    expect(browserFamily(`${userAgents.windowsChrome} Edg/131.0`)).toBe('Edge')
    expect(browserFamily(userAgents.macFirefox)).toBe('Firefox')
    expect(browserFamily('curl/8.0')).toBe('Other')
  })

  it("reads an aggregator's subscribers from its user agent", () => {
    expect(feedSubscribers(userAgents.feedly)).toEqual({aggregator: 'Feedly', subscribers: 42})
    expect(
      feedSubscribers('NewsBlur Feed Fetcher - 12 subscribers - https://www.newsblur.com/site/1'),
    ).toEqual({aggregator: 'NewsBlur Feed Fetcher', subscribers: 12})
    expect(feedSubscribers(userAgents.macFirefox)).toBeUndefined()
  })

  it('clips and cleans what a client sent', () => {
    expect(clip('x'.repeat(10_000))).toHaveLength(256)
    expect(clip('a\u0000b\u001bc\nd')).toBe('abcd')
    expect(
      campaign(new URLSearchParams({utm_campaign: `<script>${'y'.repeat(10_000)}`})),
    ).toHaveLength(256)
    expect(campaign(new URLSearchParams({utm_term: 'x'}))).toBeUndefined()
  })

  it('reduces a path to its route and a referrer to its host', () => {
    expect(canonicalPath('/Services/')).toBe('/services')
    expect(canonicalPath('/service')).toBe('/services')
    expect(canonicalPath('//blog//a-post/')).toBe('/blog/a-post')
    expect(canonicalPath('/')).toBe('/')
    const own = new Set(['example.com'])
    expect(referrerHost('https://www.Google.com/search?q=x', own)).toBe('google.com')
    expect(referrerHost('https://example.com/blog', own)).toBe('direct')
    expect(referrerHost('android-app://com.slack', own)).toBe('direct')
    expect(referrerHost('not a url', own)).toBe('direct')
    expect(referrerHost(undefined, own)).toBe('direct')
  })
})
