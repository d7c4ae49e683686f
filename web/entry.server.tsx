import type {QueryParams, SanityClient} from '@sanity/client'
import type {ReactElement} from 'react'
import {renderToString} from 'react-dom/server'
import {prerender} from 'react-dom/static'
import {
  createStaticHandler,
  createStaticRouter,
  RouterContextProvider,
  StaticRouterProvider,
} from 'react-router-dom'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import type {SiteConfig} from '../shared/siteConfig.ts'
import {serializePayload} from './payload.ts'
import {serverStyleSheet} from './serverStyleSheet.ts'
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
  /**
   * The lake of this very process, read without a socket (server/lake/api/siteQuery.ts): when
   * given, the public render's queries go here instead of to `contentOrigin`.
   */
  contentQuery?: ContentQuery
  assets: ClientAssets
  /** A one-time message to render into this page (never cache the result). */
  flash?: Flash
  /**
   * Preview mode (server/preview/): the drafts perspective, read with these headers (the preview
   * session's credential) from `contentOrigin` (local) or sanity.io (hosted). Never cached.
   */
  preview?: {headers: Record<string, string>}
  /**
   * The id of the last live event the server saw (server/live/contentEvents.ts): sent with every
   * query, with `cacheMode: 'noStale'`, so a CDN cannot answer with what it held before it.
   */
  lastLiveEventId?: string
  /** Renders with prerender alone (a test checks that renderToString gives the same pages). */
  prerenderOnly?: boolean
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
  /**
   * The sync tags of every query the render made, from the same answers as its data: a live
   * event naming one of them means the page may have changed (server/render/cache.ts).
   */
  syncTags: string[]
  /**
   * A query could not reach the content store (no answer, 5xx or 429): the page shows a fallback
   * (no posts, 'Post not found.'), which the server replaces with a stale copy or a 503.
   */
  contentUnreachable: boolean
}

/** A query answered as the lake's query API answers it: the result and its sync tags. */
export type ContentQuery = (
  query: string,
  params: QueryParams,
) => Promise<{result: unknown; syncTags?: string[]}>

/** What one render learned from its queries. */
interface QueryRecord {
  tags: Set<string>
  unreachable: boolean
}

/** Whether a failed fetch means "the store did not answer" rather than "the query is wrong". */
function isUnreachable(error: unknown): boolean {
  const status =
    typeof error === 'object' && error !== null && 'statusCode' in error
      ? error.statusCode
      : undefined
  return typeof status !== 'number' || status >= 500 || status === 429
}

/**
 * A content client's reads with `filterResponse: false`, so the sync tags come with the very
 * data they describe (never from a separate lookup that could drift from it).
 */
function clientQuery(client: SanityClient, lastLiveEventId: string | undefined): ContentQuery {
  const live = lastLiveEventId === undefined ? {} : {lastLiveEventId, cacheMode: 'noStale' as const}
  return (query, params) => client.fetch<unknown>(query, params, {filterResponse: false, ...live})
}

/**
 * The client the loaders get for one render: `fetch(query, params)` as they call it, answered
 * by `read`, whose sync tags the render records.
 */
function recordingClient(
  client: SanityClient,
  record: QueryRecord,
  read: ContentQuery,
): SanityClient {
  const fetch = async (query: string, params?: QueryParams) => {
    try {
      const response = await read(query, params ?? {})
      for (const tag of response.syncTags ?? []) record.tags.add(tag)
      return response.result
    } catch (error) {
      if (isUnreachable(error)) record.unreachable = true
      throw error
    }
  }
  // Loaders call fetch(query, params) only; everything else is the client itself.
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'fetch' ? fetch : Reflect.get(target, property, receiver),
  })
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
    // Two retries, not five: a store that does not answer costs a visitor well under a second
    // before the server answers with a stale copy or a 503 (server/render/handler.ts).
    client = createSiteClient(site, origin, headers).withConfig({maxRetries: 2})
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
  const record: QueryRecord = {tags: new Set(), unreachable: false}
  // Preview reads drafts with the visitor's own credential: always through the client.
  const read =
    preview || !options.contentQuery
      ? clientQuery(client, preview ? undefined : options.lastLiveEventId)
      : options.contentQuery
  const recorded = recordingClient(client, record, read)
  const requestContext = new RouterContextProvider()
  requestContext.set(sanityClientContext, () => Promise.resolve(recorded))
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
  const {body, styleTags} = await renderDocument(
    <Document
      site={options.site}
      payloadJson={payloadJson}
      flash={options.flash}
      preview={preview !== undefined}
    >
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </Document>,
    options.prerenderOnly === true,
  )
  const boot =
    payloadJson === null ? '' : `${bootScript(options.assets)}${speculationRulesScript()}`
  const html = withStylesAndBoot(body, styleTags, boot)
  const noStore = Object.values(context.loaderHeaders).some((headers) =>
    /no-store/.test(headers.get('Cache-Control') ?? ''),
  )
  const ownAddress = Object.values(context.loaderHeaders)
    .map((headers) => headers.get('Content-Location'))
    .find((location) => location !== null)
  return {
    status: context.statusCode,
    html,
    cacheable: !failed && !noStore && !options.flash && !preview && !record.unreachable,
    ...(ownAddress ? {ownAddress} : {}),
    syncTags: [...record.tags].sort(),
    contentUnreachable: record.unreachable,
  }
}

const documentEnd = '</body></html>'

/**
 * The document with its styles before `</head>` and the boot script before its final `</body>`,
 * joined from slices of it: two `replace`s copied the whole page twice, a tenth of what a search's
 * page allocated (docs/search.md, "Speed").
 */
function withStylesAndBoot(body: string, styleTags: string, boot: string): string {
  const head = body.indexOf('</head>')
  const end = body.endsWith(documentEnd) ? body.length - documentEnd.length : -1
  // Not a whole document (never rendered): whatever of the two is there.
  if (head < 0 || end < head)
    return body
      .replace('</head>', () => `${styleTags}</head>`)
      .replace(/<\/body>(?=<\/html>$)/, () => `${boot}</body>`)
  return body.slice(0, head) + styleTags + body.slice(head, end) + boot + body.slice(end)
}

/** Where renderToString left a Suspense boundary to the browser (React's client-render mark). */
const clientRenderedBoundary = '<!--$!-->'

/**
 * The whole document, doctype included, and the styled-components styles it used.
 *
 * renderToString first: it is synchronous, ~0.3 ms quicker than prerender on a search page, which
 * is rendered for every search (docs/search.md, "Speed"). When something suspended (Home's lazy
 * sections, until their module has loaded once), it leaves that boundary to the browser with
 * React's client-render mark, or throws outside any boundary: the page is then rendered again
 * with prerender, which waits for it, with a fresh style sheet so that the fallback's styles are
 * not kept. Both give the same HTML for a page that does not suspend (e2e/site.render.test.ts).
 */
async function renderDocument(
  document: ReactElement,
  prerenderOnly: boolean,
): Promise<{body: string; styleTags: string}> {
  if (!prerenderOnly) {
    const quick = serverStyleSheet()
    try {
      const body = renderToString(quick.collectStyles(document))
      if (!body.includes(clientRenderedBoundary))
        return {body: `<!DOCTYPE html>${body}`, styleTags: quick.getStyleTags()}
    } catch {
      // Suspended outside a boundary: prerender below waits for it, or reports the real error.
    } finally {
      quick.seal()
    }
  }
  const sheet = serverStyleSheet()
  try {
    // prerender (not renderToString) waits for lazy components, so Home's sections are in the HTML.
    // It would still move a Suspense boundary out of place once the page passed
    // `progressiveChunkSize` (12,800 bytes by default), to be put back by React's inline scripts
    // ($RC, $RB/$RV, $RT), which the pages' CSP does not allow (server/http/securityHeaders.ts):
    // the boundary then stayed on its fallback and React gave up on it (error #419). The page is
    // sent whole anyway, so there is nothing to stream progressively: keep every boundary in place.
    const {prelude} = await prerender(sheet.collectStyles(document), {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    })
    // The prelude is the whole document, doctype included.
    return {body: await new Response(prelude).text(), styleTags: sheet.getStyleTags()}
  } finally {
    sheet.seal()
  }
}
