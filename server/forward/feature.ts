import type {Context, Hono} from 'hono'
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
import {mountFederationForward} from './federation.ts'
import {createForwarder, previewStreamMs} from './proxy.ts'
import type {RemotePreview} from './remotePreview.ts'
import {maxAnonymousQueryBodyBytes} from '../lake/index.ts'

/**
 * A site process (LAKE_URL) forwards the few browser-facing paths a public page uses to the
 * content process: content reads (Load More), contact posts, the newsletter's form and links,
 * images, preview's routes, and the social web's paths (federation.ts). The visitor's address
 * goes along as X-Forwarded-For (the content process believes it with TRUST_PROXY=loopback when
 * both run on one machine); nothing of the visitor's but the listed headers is passed on.
 */
export function mountForward(app: Hono, lakeUrl: string, preview?: RemotePreview): void {
  const forward = createForwarder(lakeUrl)
  // A visitor's query: the content process refuses a larger body anyway, so it is not read here.
  const query = (c: Context) =>
    forward(c, unavailableJson(c), {maxBytes: maxAnonymousQueryBodyBytes})
  // Only version-shaped prefixes, as the lake's own routes (server/lake/api/routes.ts).
  const queryPath = '/:version{v[0-9]{4}-[0-9]{2}-[0-9]{2}|v1|vX}/data/query/:dataset'
  app.get(queryPath, query)
  app.post(queryPath, query)
  app.get('/images/:projectId/:dataset/:file', (c) => forward(c, unavailableJson(c)))
  forwardForms(app, forward)
  forwardPreview(app, forward, preview)
  // The social web: the content process holds the actor's keys and the queue.
  mountFederationForward(app, lakeUrl)
}

type Forward = ReturnType<typeof createForwarder>

const unavailableJson = (c: Context) => () =>
  c.json(
    {error: {type: 'serviceUnavailable', description: 'The content source could not be reached'}},
    503,
    {'retry-after': '5'},
  )

/**
 * The newsletter's form and the links in its mails (server/newsletter/routes.ts), and the
 * contact form: the content process keeps the subscribers and messages, and mails them.
 */
function forwardForms(app: Hono, forward: Forward): void {
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

/**
 * Preview (docs/preview.md): the Studio's enable and disable links and the browser's draft
 * reads go to the content process, which holds the preview sessions; pages in preview are
 * rendered here with the session's credential (server/render/feature.ts).
 */
function forwardPreview(app: Hono, forward: Forward, preview: RemotePreview | undefined): void {
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
}
