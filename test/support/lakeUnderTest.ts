import {mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {getRequestListener} from '@hono/node-server'
import type {IdentifiedSanityDocumentStub, SanityClient} from '@sanity/client'
import {Hono} from 'hono'
import {defaultSessionIdleHours, defaultSessionMaxDays} from '../../shared/ownerAccess.ts'
import {clientMiddleware, type TrustProxy} from '../../server/http/clientAddress.ts'
import {errorResponse} from '../../server/http/errorResponse.ts'
import {Lake, registerLakeRoutes, seedIfEmpty} from '../../server/lake/index.ts'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'
import {siteSearchWarmQuery, sitePrerenderUrls} from '../../server/siteForLake.ts'
import type {SiteQuery} from '../../server/lake/index.ts'
import {localClient} from './localClient.ts'

/** The API version the site speaks; tests of other versions pass their own. */
export {apiVersion}

export interface LakeUnderTest {
  url: string
  token: string
  lake: Lake
  /** The lake's data dir (removed at stop unless the test passed its own). */
  dataDir: string
  /** Owner client (token, no CDN). */
  owner: SanityClient
  /** Anonymous client, as the public site builds it (CDN on, no token). */
  anon: SanityClient
  /** A client for another API version or token, same server. */
  client(options?: {apiVersion?: string; token?: string; useCdn?: boolean}): SanityClient
  /** Resolves once the lake has no image variant left to pre-render (server/lake/assets/prerender.ts). */
  imagesIdle(): Promise<void>
  /** The site's reads of this lake in process, as a single-process server's renders do them. */
  siteQuery: SiteQuery
  /** Raw HTTP against the server, for inputs @sanity/client would refuse to send. */
  fetch(path: string, init?: RequestInit & {token?: string}): Promise<Response>
  stop(): Promise<void>
}

/** What a test may set, as the server's environment would (server/env.ts names in brackets). */
export interface LakeUnderTestOptions {
  /** An existing data dir (DATA_DIR), kept after stop: a restart over the same data. */
  dataDir?: string
  /** The owner token (LAKE_TOKEN); generated into the data dir when absent. */
  token?: string
  /** Whose X-Forwarded-For names the client (TRUST_PROXY). */
  trustProxy?: TrustProxy
  /** Studio sessions' idle and absolute lifetimes (SESSION_IDLE_HOURS, SESSION_MAX_DAYS). */
  sessionIdleMs?: number
  sessionMaxMs?: number
  /** What separate site processes present so their renders are not capped as one visitor's (SITE_READ_TOKEN). */
  siteReadToken?: string
  /** The loopback port to listen on (a restart on the same address); free one when absent. */
  port?: number
  /** Seeds the sample content (content/seed.ndjson) into an empty lake, as SEED=1 does. */
  seed?: boolean
}

/**
 * Starts the lake alone (empty unless `seed`, fresh data dir unless `dataDir`): every route of
 * server/lake/api/routes.ts behind the app's client identity and error responder, on a free
 * loopback port, nothing else of the product. Builds @sanity/client instances exactly as the site
 * and the Studio do: `apiHost` = our origin, `useProjectHostname: false`. The Studio's origin is
 * this server's, its address `${url}/studio`. Tests of the whole app use ./server.ts instead.
 */
export async function startLakeUnderTest(
  options: LakeUnderTestOptions = {},
): Promise<LakeUnderTest> {
  const ownDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'scriptorium-lake-'))
  const lake = new Lake({
    dataDir,
    projectId: localProjectId,
    dataset: defaultDataset,
    token: options.token,
    siteReadToken: options.siteReadToken,
    // As server/start.ts: the lake knows no site, so what it prepares for the site is handed in.
    warmQuery: siteSearchWarmQuery,
  })
  if (options.seed) await seedIfEmpty(lake, {dataDir})
  const trustProxy = options.trustProxy ?? 'none'
  const app = new Hono()
  app.use(clientMiddleware(trustProxy))
  app.onError(errorResponse)
  let url = ''
  const routes = registerLakeRoutes(app, lake, {
    dataDir,
    siteUrl: () => url,
    trustProxy,
    sessionIdleMs: options.sessionIdleMs ?? defaultSessionIdleHours * 3_600_000,
    sessionMaxMs: options.sessionMaxMs ?? defaultSessionMaxDays * 86_400_000,
    isStudioOrigin: (origin) => origin === url,
    isStudioUrl: (address) => address.startsWith(`${url}/studio`),
    prerenderUrls: sitePrerenderUrls({projectId: localProjectId, dataset: defaultDataset}),
  })
  const http = createServer(getRequestListener(app.fetch))
  http.on('upgrade', (request, socket, head) => {
    if (!routes.upgrade(request, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  let stopped: Promise<void> | undefined
  // As the server stops (server/start.ts): the routes end their streams (without `disconnect`,
  // so clients reconnect), the connections drain, and any still open after a bound are cut.
  const stop = async () => {
    routes.close()
    const closed = new Promise((resolve) => http.close(resolve))
    http.closeIdleConnections()
    const cut = setTimeout(() => http.closeAllConnections(), 2_000)
    await closed
    clearTimeout(cut)
    lake.close()
    if (ownDataDir) rmSync(dataDir, {recursive: true, force: true})
  }
  const server = {url, stop: () => (stopped ??= stop())}
  const client: LakeUnderTest['client'] = (options = {}) => localClient(server.url, options)
  return {
    url: server.url,
    token: lake.token,
    lake,
    dataDir,
    owner: client({token: lake.token}),
    anon: client({useCdn: true}),
    client,
    imagesIdle: () => routes.images.idle(),
    siteQuery: routes.siteQuery,
    fetch(path, init = {}) {
      const {token, ...rest} = init
      const headers = new Headers(rest.headers)
      if (token) headers.set('authorization', `Bearer ${token}`)
      return fetch(`${server.url}${path}`, {...rest, headers})
    },
    stop: () => server.stop(),
  }
}

/**
 * The lake alone (as `startLakeUnderTest`), holding `docs` from the start: written in one
 * transaction, which returns once queries see it (`visibility: 'sync'`).
 */
export async function startLakeHolding(
  docs: IdentifiedSanityDocumentStub[],
  options: LakeUnderTestOptions = {},
): Promise<LakeUnderTest> {
  const t = await startLakeUnderTest(options)
  const transaction = t.owner.transaction()
  for (const doc of docs) transaction.createOrReplace(doc)
  await transaction.commit({visibility: 'sync'})
  return t
}
