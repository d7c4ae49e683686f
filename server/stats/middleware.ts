import type {Context, MiddlewareHandler} from 'hono'
import {clientOf} from '../http/clientAddress.ts'
import {requestHeader} from '../http/requestHeader.ts'
import {isSitePage, type PageObserver} from '../http/sitePages.ts'
import {clip, direct, referrerHost} from './dimensions.ts'
import type {DailySalt} from './salt.ts'
import type {Tally} from './tally.ts'
import {agentOf, type Agent} from './agents.ts'
import {feedSubscribers} from './userAgent.ts'
import {pageOfAddress, type ViewedPage} from './viewedPage.ts'

/** The feeds whose fetches report aggregators' subscribers (server/discovery/feature.ts). */
export const feedPaths = ['/rss.xml', '/atom.xml']

export interface CountingOptions {
  tally: Tally
  salt: DailySalt
  /** The owner's own views are not counted (ownerView.ts). */
  isOwner(c: Context): boolean
  /** Host names that are the site itself: a referrer from them is "direct". */
  ownHosts(c: Context): Set<string>
  now?: () => number
}

/**
 * A request a browser makes ahead of the reader (Chromium's `Sec-Purpose: prefetch` and
 * `prefetch;prerender`, the older `Purpose: prefetch`): not a view until shown, when the boot
 * script's beacon counts it (beacon.ts).
 */
export function isSpeculative(c: Context): boolean {
  const purpose = requestHeader(c, 'sec-purpose') ?? requestHeader(c, 'purpose')
  return purpose !== undefined && speculative.test(purpose)
}

const speculative = /prefetch|prerender/i

/** A person's request: a user agent, not one of isbot's crawlers, not asking to be left alone. */
export function isCountableReader(c: Context, agent: Agent): boolean {
  return !agent.bot && requestHeader(c, 'sec-gpc') !== '1'
}

/**
 * Counts the feed readers that aggregators report (userAgent.ts `feedSubscribers`): mounted on
 * the feeds' paths only, in front of them, so it sees what they answered.
 */
export function countFeedReaders(options: CountingOptions): MiddlewareHandler {
  const now = options.now ?? Date.now
  return async (c, next) => {
    await next()
    if (c.req.method !== 'GET' || !feedPaths.includes(c.req.path)) return
    if (c.res.status !== 200 && c.res.status !== 304) return
    const report = feedSubscribers(clip(requestHeader(c, 'user-agent')))
    if (report) options.tally.addFeed(now(), report.aggregator, c.req.path, report.subscribers)
  }
}

/**
 * Counts the public pages this process serves (docs/reader-statistics.md): the site's own route
 * hands each of its answers here (server/app.ts wires it), so no middleware stands in front of
 * every request. A page is a response the site handler rendered (server/http/sitePages.ts: the
 * answers that carry `X-Cache`, render-cache hits included; assets are not) to a GET, answered
 * 200 or 304; a 404 page is counted apart, as a "not found" path. The work is a few header
 * reads and map lookups; nothing is written here (flusher.ts writes the batch).
 */
export function countPageViews(options: CountingOptions): PageObserver {
  const now = options.now ?? Date.now
  return (c, response) => {
    if (c.req.method !== 'GET' || !isSitePage(response)) return
    const status = response.status
    if (status !== 200 && status !== 304 && status !== 404) return
    const agent = agentOf(requestHeader(c, 'user-agent'))
    if (!isCountableReader(c, agent) || isSpeculative(c) || options.isOwner(c)) return
    countView(
      c,
      options,
      agent,
      status === 404,
      pageOfAddress(c.req.url),
      requestHeader(c, 'referer'),
      now(),
    )
  }
}

/** Adds one view of `page` to the tally: the page's own request, or a prerendered page's beacon. */
export function countView(
  c: Context,
  options: CountingOptions,
  agent: Agent,
  notFound: boolean,
  page: ViewedPage,
  referer: string | undefined,
  time: number,
): void {
  options.tally.add({
    time,
    visitor: options.salt.visitor(time, clientOf(c).key, agent.userAgent),
    path: page.path,
    notFound,
    // The site's own hosts are asked for only when there is a referrer to compare.
    referrer: referer ? referrerHost(referer, options.ownHosts(c)) : direct,
    campaign: page.campaign,
    device: agent.device,
    browser: agent.browser,
  })
}
