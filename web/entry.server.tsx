import type {SanityClient} from '@sanity/client'
import {prerender} from 'react-dom/static'
import {
  createStaticHandler,
  createStaticRouter,
  RouterContextProvider,
  StaticRouterProvider,
} from 'react-router-dom'
import {ServerStyleSheet} from 'styled-components'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import type {SiteConfig} from '../shared/siteConfig.ts'
import {serializePayload} from './payload.ts'
import {bootScript, type ClientAssets} from './boot/bootScript.ts'
import {speculationRulesScript} from './boot/speculationRules.ts'
import type {Flash} from './components/flashContext.ts'
import {routes} from './routes.tsx'
import {createPreviewClient, createSiteClient} from './sanity.client.ts'

export type {ClientAssets} from './boot/bootScript.ts'
export {bootScriptSource} from './boot/bootScript.ts'
export {speculationRulesSource} from './boot/speculationRules.ts'
export type {Flash} from './components/flashContext.ts'
export {resolveSiteConfig, type SiteConfig} from '../shared/siteConfig.ts'

export interface RenderOptions {
  site: SiteConfig
  /** Where this process's lake answers over HTTP (local mode); ignored in hosted mode. */
  contentOrigin: string
  /** Sent with every content request (local mode): the lake's internal credential. */
  contentHeaders?: Record<string, string>
  assets: ClientAssets
  /** A one-time message to render into this page (never cache the result). */
  flash?: Flash
  /**
   * Preview mode (server/preview/): the drafts perspective, read with these headers (the preview
   * session's credential) from `contentOrigin` (local) or sanity.io (hosted). Never cached.
   */
  preview?: {headers: Record<string, string>}
}

export interface RenderedPage {
  status: number
  html: string
  /** False when a loader asked for no-store (e.g. a failed fetch): never keep it in a cache. */
  cacheable: boolean
  /**
   * The page's own address (path and query) when a loader names it with `Content-Location`, e.g.
   * the blog's `count` clamped to the tab's last page: a request for another address is a variant.
   */
  ownAddress?: string
}

const handler = createStaticHandler(routes)
const clients = new Map<string, SanityClient>()

function clientFor(
  site: SiteConfig,
  origin: string,
  headers?: Record<string, string>,
): SanityClient {
  const key = `${site.mode}|${site.projectId}|${site.dataset}|${origin}|${JSON.stringify(headers)}`
  let client = clients.get(key)
  if (!client) {
    client = createSiteClient(site, origin, headers)
    clients.set(key, client)
  }
  return client
}

/**
 * Renders one GET request to a full HTML page by React Router's documented data-router SSR flow
 * (static handler → query → static router → render), with styled-components' styles inlined in
 * the head. A redirect from a loader comes back as a Response.
 */
export async function render(
  request: Request,
  options: RenderOptions,
): Promise<RenderedPage | Response> {
  const {site, preview} = options
  // A preview client per render: its credential is the visitor's own preview session.
  const client = preview
    ? createPreviewClient(
        site,
        site.mode === 'local' ? options.contentOrigin : undefined,
        preview.headers,
      )
    : clientFor(site, options.contentOrigin, options.contentHeaders)
  const requestContext = new RouterContextProvider()
  requestContext.set(sanityClientContext, () => Promise.resolve(client))
  const context = await handler.query(request, {requestContext})
  if (context instanceof Response) return context

  const router = createStaticRouter(handler.dataRoutes, context)
  // An unexpected loader error renders the static error page without the browser bundle.
  const failed = context.errors !== null
  const payloadJson = failed
    ? null
    : serializePayload({
        site: options.site,
        hydrationData: {loaderData: context.loaderData, actionData: context.actionData},
        ...(options.flash ? {flash: options.flash} : {}),
        ...(preview ? {preview: true as const} : {}),
      })
  const sheet = new ServerStyleSheet()
  try {
    // prerender (not renderToString) waits for lazy components, so Home's sections are in the HTML.
    // It would still move a Suspense boundary out of place once the page passed
    // `progressiveChunkSize` (12,800 bytes by default), to be put back by React's inline scripts
    // ($RC, $RB/$RV, $RT), which the pages' CSP does not allow (server/http/securityHeaders.ts):
    // the boundary then stayed on its fallback and React gave up on it (error #419). The page is
    // sent whole anyway, so there is nothing to stream progressively: keep every boundary in place.
    const {prelude} = await prerender(
      sheet.collectStyles(
        <Document
          site={options.site}
          payloadJson={payloadJson}
          flash={options.flash}
          preview={preview !== undefined}
        >
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Document>,
      ),
      {progressiveChunkSize: Number.POSITIVE_INFINITY},
    )
    // The prelude is the whole document, doctype included.
    const body = await new Response(prelude).text()
    const boot =
      payloadJson === null ? '' : `${bootScript(options.assets)}${speculationRulesScript()}`
    const html = body
      .replace('</head>', `${sheet.getStyleTags()}</head>`)
      .replace(/<\/body>(?=<\/html>$)/, `${boot}</body>`)
    const noStore = Object.values(context.loaderHeaders).some((headers) =>
      /no-store/.test(headers.get('Cache-Control') ?? ''),
    )
    const ownAddress = Object.values(context.loaderHeaders)
      .map((headers) => headers.get('Content-Location'))
      .find((location) => location !== null)
    return {
      status: context.statusCode,
      html,
      cacheable: !failed && !noStore && !options.flash && !preview,
      ...(ownAddress ? {ownAddress} : {}),
    }
  } finally {
    sheet.seal()
  }
}
