import type {Context, Hono} from 'hono'
import {clientOf, forwardedAddress} from '../http/clientAddress.ts'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {refusals, safe} from '../http/log.ts'
import {errorResponse} from '../http/errorResponse.ts'
import {maxFormBytes} from '../http/formFields.ts'
import {FormRefusal, retryWording} from '../http/formRefusal.ts'
import {canonicalPaths} from '../../shared/canonicalPaths.ts'
import {
  confirmPath,
  localContactAction,
  maxSubscribeBodyBytes,
  previewContentPath,
  subscribePath,
  unsubscribePath,
} from '../../shared/siteConfig.ts'
import {previewDisablePath, previewEnablePath} from '../../shared/constants.ts'
import {presentedPreviewToken} from '../http/previewCookie.ts'
import type {RemotePreview} from './remotePreview.ts'
import {maxAnonymousQueryBodyBytes} from '../lake/index.ts'

/** Largest body forwarded: a preview session's POSTed query (the lake's own cap for it). */
const maxBodyBytes = 1024 * 1024
/** Longer than the lake's budget for a query (10 s), shorter than a browser's patience. */
const upstreamTimeoutMs = 15_000
/** Forwards in flight from one visitor (a page issues one or two reads at a time). */
const maxPerClient = 8
/** Forwards in flight in all: past it the content process is the bottleneck anyway. */
const maxTotal = 256

/** Request headers the content process needs; nothing else (no cookies, no credentials). */
const requestHeaders = [
  'accept',
  'content-type',
  'if-none-match',
  'user-agent',
  'origin',
  'referer',
]
/** Response headers passed back; hop-by-hop and encoding headers are this hop's own. */
const responseHeaders = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'location',
  'retry-after',
  'x-cache',
  'vary',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-robots-tag',
]

/** Preview's routes also need the visitor's preview cookie, and the stream's resume position. */
const previewRequestHeaders = ['cookie', 'last-event-id']
/** A preview page's live-drafts stream is held open: bounded like Sanity's listeners (30 min). */
const previewStreamMs = 30 * 60_000

interface ForwardOptions {
  /** The body's cap while it streams (the content process's own cap for the route). */
  maxBytes?: number
  /** The whole exchange, body included. */
  timeoutMs?: number
  /** Preview's routes: the preview cookie goes along, and the one set comes back. */
  preview?: boolean
}

/**
 * A site process (LAKE_URL) forwards the few browser-facing paths a public page uses to the
 * content process: content reads (Load More), contact posts, the newsletter's form and links,
 * images, and preview's routes. The visitor's address
 * goes along as X-Forwarded-For (the content process believes it with TRUST_PROXY=loopback when
 * both run on one machine); nothing of the visitor's but the listed headers is passed on.
 */
export function mountForward(app: Hono, lakeUrl: string, preview?: RemotePreview): void {
  const inFlight = new Map<string, number>()
  let total = 0
  const lakeOrigin = new URL(lakeUrl).origin

  const forward = async (
    c: Context,
    unreachable: () => Response | Promise<Response>,
    {maxBytes = maxBodyBytes, timeoutMs = upstreamTimeoutMs, preview = false}: ForwardOptions = {},
  ) => {
    const client = clientOf(c)
    const mine = inFlight.get(client.key) ?? 0
    if (mine >= maxPerClient || total >= maxTotal) {
      // Summarised per client and kind (server/http/log.ts): a flood writes one line a minute.
      refusals.refuse(
        client.key,
        'forward-in-flight',
        `[forward] 429 ${c.req.method} ${safe(c.req.path)} from ${client.key}: too many in flight`,
      )
      return c.json(
        {error: {type: 'tooManyRequests', description: 'Too many requests in flight'}},
        429,
        {'retry-after': '1'},
      )
    }
    inFlight.set(client.key, mine + 1)
    total++
    try {
      let body: Uint8Array<ArrayBuffer> | undefined
      if (c.req.method === 'POST') {
        try {
          body = await readBody(c.req.raw, maxBytes)
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error
          refusals.refuse(
            client.key,
            'forward-too-large',
            `[forward] 413 ${safe(c.req.path)} from ${client.key}: body over ${maxBytes} bytes`,
          )
          return c.json({error: {type: 'requestEntityTooLarge', description: error.message}}, 413)
        }
      }
      const incoming = new URL(c.req.url)
      const headers: Record<string, string> = {
        // Identity: fetch() would decode a compressed answer and leave its header wrong.
        'accept-encoding': 'identity',
        'x-forwarded-proto': client.secure ? 'https' : 'http',
      }
      // An IP the content process believes, naming the visitor's /24 or /48 as our key does.
      const address = forwardedAddress(client)
      if (address) headers['x-forwarded-for'] = address
      for (const name of preview ? [...requestHeaders, ...previewRequestHeaders] : requestHeaders) {
        const value = c.req.header(name)
        if (value !== undefined) headers[name] = value
      }
      let upstream: Response
      try {
        upstream = await fetch(new URL(incoming.pathname + incoming.search, lakeUrl), {
          method: c.req.method,
          headers,
          ...(body ? {body} : {}),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
        })
      } catch (error) {
        console.warn(
          `[forward] ${c.req.method} ${safe(c.req.path)}: the content process did not answer (${String(error)})`,
        )
        return await unreachable()
      }
      const passed = new Headers()
      for (const name of responseHeaders) {
        const value = upstream.headers.get(name)
        if (value !== null) passed.set(name, value)
      }
      if (preview)
        for (const cookie of upstream.headers.getSetCookie()) passed.append('set-cookie', cookie)
      // A redirect to the content process's own address (a relative `_next` resolves against
      // the request it got) is one to this site: keep the path, as a reverse proxy does.
      const location = passed.get('location')
      if (location?.startsWith(`${lakeOrigin}/`))
        passed.set('location', location.slice(lakeOrigin.length))
      // Streamed through, not held.
      return new Response(upstream.body, {status: upstream.status, headers: passed})
    } finally {
      total--
      const left = (inFlight.get(client.key) ?? 1) - 1
      if (left === 0) inFlight.delete(client.key)
      else inFlight.set(client.key, left)
    }
  }

  const unavailableJson = (c: Context) => () =>
    c.json(
      {error: {type: 'serviceUnavailable', description: 'The content source could not be reached'}},
      503,
      {'retry-after': '5'},
    )
  // A visitor's query: the content process refuses a larger body anyway, so it is not read here.
  const query = (c: Context) =>
    forward(c, unavailableJson(c), {maxBytes: maxAnonymousQueryBodyBytes})
  // Only version-shaped prefixes, as the lake's own routes (server/lake/api/routes.ts).
  const queryPath = '/:version{v[0-9]{4}-[0-9]{2}-[0-9]{2}|v1|vX}/data/query/:dataset'
  app.get(queryPath, query)
  app.post(queryPath, query)
  app.get('/images/:projectId/:dataset/:file', (c) => forward(c, unavailableJson(c)))
  // The newsletter's form and the links in its mails (server/newsletter/routes.ts): the content
  // process keeps the subscribers and mails them.
  const newsletterAway = (c: Context) => () =>
    errorResponse(
      new FormRefusal(503, `Subscriptions cannot be handled right now. ${retryWording(5)}`, {
        kind: 'forward-newsletter-away',
        title: 'That did not work',
        back: {href: '/', label: 'Back to the site'},
        retryAfter: 5,
      }),
      c,
    )
  app.post(subscribePath, (c) => forward(c, newsletterAway(c), {maxBytes: maxSubscribeBodyBytes}))
  app.get(confirmPath, (c) => forward(c, newsletterAway(c)))
  app.get(unsubscribePath, (c) => forward(c, newsletterAway(c)))
  app.post(unsubscribePath, (c) => forward(c, newsletterAway(c), {maxBytes: maxSubscribeBodyBytes}))
  // Preview (docs/preview.md): the Studio's enable and disable links and the browser's draft
  // reads go to the content process, which holds the preview sessions; pages in preview are
  // rendered here with the session's credential (server/render/feature.ts).
  const previewOptions = {preview: true}
  app.get(previewEnablePath, (c) => forward(c, unavailableJson(c), previewOptions))
  app.get(previewDisablePath, (c) => {
    const token = presentedPreviewToken(c)
    if (token) preview?.ended(token)
    return forward(c, unavailableJson(c), previewOptions)
  })
  const previewReads = `${previewContentPath}/:version/data/query/:dataset`
  app.get(previewReads, (c) => forward(c, unavailableJson(c), previewOptions))
  app.post(previewReads, (c) => forward(c, unavailableJson(c), previewOptions))
  app.get(`${previewContentPath}/:version/data/live/events/:dataset`, (c) =>
    forward(c, unavailableJson(c), {preview: true, timeoutMs: previewStreamMs}),
  )
  const contactAway = (c: Context) => () =>
    errorResponse(
      new FormRefusal(503, `The contact form cannot take messages right now. ${retryWording(5)}`, {
        kind: 'forward-contact-away',
        title: 'Your message was not sent',
        back: {href: canonicalPaths.contact, label: 'Back to the contact page'},
        retryAfter: 5,
      }),
      c,
    )
  app.post(localContactAction, (c) => forward(c, contactAway(c), {maxBytes: maxFormBytes}))
}
