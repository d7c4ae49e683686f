import {viewBeaconPath} from '../../shared/constants.ts'
import type {View} from './tally.ts'

/**
 * A scripted day of readers (docs/reader-statistics.md), shared by the statistics' tests: who
 * asks for what, from where, with which browser. Addresses are documentation ranges (RFC 5737),
 * sent only as `X-Forwarded-For` to a server on loopback.
 */
export const userAgents = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
  linuxChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  googlebot:
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36',
  feedly:
    'Feedly/1.0 (+http://www.feedly.com/fetcher.html; 42 subscribers; like FeedFetcher-Google)',
}

export const post = '/blog/ghostwriting-without-losing-your-voice'
export const postTitle = 'Ghostwriting Without Losing Your Voice, or Theirs'

export interface ScriptedRequest {
  who: string
  path: string
  method?: 'GET' | 'HEAD'
  address: string
  userAgent: string
  headers?: Record<string, string>
  /** Send the ETag of the previous answer for this path (a 304). */
  revalidate?: boolean
  /** The boot script's report that a prerendered page was shown: POSTed to `path`. */
  beacon?: {path: string; referrer: string}
}

/** The day: five readers, and the requests that must not count. `site` is the own origin. */
export function scriptedDay(site: string): ScriptedRequest[] {
  const alice = {who: 'alice', address: '198.51.100.7', userAgent: userAgents.iPhoneSafari}
  const bob = {who: 'bob', address: '203.0.113.9', userAgent: userAgents.windowsChrome}
  const carol = {who: 'carol', address: '192.0.2.5', userAgent: userAgents.androidFirefox}
  const dave = {who: 'dave', address: '198.51.100.200', userAgent: userAgents.macFirefox}
  const erin = {who: 'erin', address: '203.0.113.50', userAgent: userAgents.linuxChrome}
  const owner = {who: 'owner', address: '192.0.2.99', userAgent: userAgents.macFirefox}
  return [
    {...alice, path: '/', headers: {referer: 'https://news.ycombinator.com/item?id=1'}},
    {...alice, path: '/blog', headers: {referer: `${site}/`}},
    {...alice, path: post, headers: {referer: `${site}/blog`}},
    {...bob, path: post, headers: {referer: 'https://www.google.com/'}},
    {...bob, path: '/services?utm_source=newsletter&utm_medium=email&utm_campaign=launch'},
    {...carol, path: '/?utm_source=mastodon', headers: {referer: 'https://mastodon.social/@x'}},
    {...dave, path: '/contact'},
    {...dave, path: '/contact', revalidate: true},
    // Not counted: a crawler from isbot's list, HEAD, an asset, the owner, Global Privacy Control.
    {who: 'bot', address: '66.249.66.1', userAgent: userAgents.googlebot, path: post},
    {...dave, path: '/', method: 'HEAD'},
    {...dave, path: '/favicon.svg'},
    {...owner, path: '/', headers: {cookie: `__Host-scriptorium-preview=prv${'a'.repeat(43)}`}},
    {...owner, path: '/blog', headers: {referer: `${site}/studio/structure`}},
    {...carol, path: '/blog', headers: {'sec-gpc': '1'}},
    // A prerender of a blog tab, not counted until shown: then the boot script's beacon.
    {...erin, path: '/blog', headers: {'sec-purpose': 'prefetch;prerender'}},
    {...erin, path: viewBeaconPath, beacon: {path: '/blog?category=travel', referrer: ''}},
    // Counted apart: a broken link, and a feed aggregator's subscribers.
    {...carol, path: '/no-such-page'},
    {who: 'feedly', address: '192.0.2.77', userAgent: userAgents.feedly, path: '/rss.xml'},
  ]
}

/** Noon UTC on the day the statistics' unit tests count. */
export const testNoon = Date.parse('2026-11-27T12:00:00Z')

/** One counted view as the tally gets it: a desktop Firefox on the home page at `testNoon`. */
export const aView = (overrides: Partial<View> = {}): View => ({
  time: testNoon,
  visitor: 'v',
  path: '/',
  notFound: false,
  referrer: 'direct',
  campaign: undefined,
  device: 'desktop',
  browser: 'Firefox',
  ...overrides,
})
