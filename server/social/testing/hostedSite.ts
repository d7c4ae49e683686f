import {mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {getRequestListener} from '@hono/node-server'
import {createClient} from '@sanity/client'
import {Hono} from 'hono'
import {startLakeUnderTest, type LakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {apiVersion} from '../../../shared/constants.ts'
import type {AppContext} from '../../context.ts'
import {readConfig} from '../../env.ts'
import {clientMiddleware} from '../../http/clientAddress.ts'
import {errorResponse} from '../../http/errorResponse.ts'
import {ContentEvents} from '../../live/contentEvents.ts'
import type {Feature} from '../../feature.ts'
import {mountSocial} from '../feature.ts'

export interface HostedSite {
  /** This process's origin (its SITE_URL). */
  url: string
  /** "sanity.io": the hosted project's dataset, a real lake served over HTTP. */
  hosted: LakeUnderTest
  /** What mountSocial returned: undefined when the social web stayed off. */
  social: Feature | void
  /** The process's own data dir (keys, queue). */
  dataDir: string
  /** Stops the process and starts it again on the same address, data dir and dataset. */
  restart(): Promise<void>
  stop(): Promise<void>
}

interface Process {
  url: string
  social: Feature | void
  stop(): Promise<void>
}

/** One hosted-mode process on `port` (0: a free one). */
async function startProcess(
  hosted: LakeUnderTest,
  dataDir: string,
  writeToken: boolean,
  port: number,
): Promise<Process> {
  let app = new Hono()
  const http = createServer(getRequestListener((request) => app.fetch(request)))
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve))
  const address = http.address()
  if (address === null || typeof address === 'string') throw new Error('the site did not listen')
  const url = `http://127.0.0.1:${address.port}`
  const config = readConfig({
    SITE_URL: url,
    DATA_DIR: dataDir,
    SANITY_STUDIO_PROJECT_ID: 'hostedproj',
    ...(writeToken ? {SANITY_API_WRITE_TOKEN: hosted.token} : {}),
  })
  const contentEvents = new ContentEvents({minBackoffMs: 50, maxBackoffMs: 500})
  // As server/live/subscribe.ts does in hosted mode: no token, the API host.
  contentEvents.start(() =>
    createClient({
      projectId: config.projectId,
      dataset: config.dataset,
      apiVersion,
      apiHost: hosted.url,
      useProjectHostname: false,
      useCdn: true,
    }).live.events({tag: 'scriptorium.site'}),
  )
  const ctx: AppContext = {
    config,
    lake: undefined,
    internalOrigin: () => url,
    contentOrigin: () => url,
    contentHeaders: () => ({}),
    contentEvents,
  }
  app = new Hono()
  app.use(clientMiddleware('none'))
  app.onError(errorResponse)
  const social = mountSocial(app, ctx, {
    config: {allowPrivate: true},
    hostedApiHost: hosted.url,
  })
  app.all('*', (c) => c.text('Not found', 404))
  return {
    url,
    social,
    async stop() {
      await social?.close?.()
      contentEvents.close()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    },
  }
}

/**
 * A hosted-mode process (SANITY_STUDIO_PROJECT_ID set, no local lake) with only the social web
 * mounted, as server/app.ts mounts it, served on loopback so that other servers can follow it.
 * "sanity.io" is a local lake over HTTP: the process reads and writes it with `@sanity/client`
 * (the test-only `hostedApiHost`) and follows its Live Content API, as it would sanity.io's.
 */
export async function startHostedSite(
  options: {
    /** SANITY_API_WRITE_TOKEN = the hosted lake's owner token (default), or unset. */
    writeToken?: boolean
    /** Writes into the process's data dir before it starts (given the hosted lake's token). */
    prepareDataDir?: (dataDir: string, hostedToken: string) => void
  } = {},
): Promise<HostedSite> {
  const hosted = await startLakeUnderTest()
  const dataDir = mkdtempSync(join(tmpdir(), 'social-hosted-'))
  options.prepareDataDir?.(dataDir, hosted.token)
  const writeToken = options.writeToken !== false
  let running = await startProcess(hosted, dataDir, writeToken, 0)
  const site: HostedSite = {
    url: running.url,
    hosted,
    social: running.social,
    dataDir,
    async restart() {
      await running.stop()
      running = await startProcess(hosted, dataDir, writeToken, Number(new URL(site.url).port))
      site.social = running.social
    },
    async stop() {
      await running.stop()
      await hosted.stop()
      rmSync(dataDir, {recursive: true, force: true})
    },
  }
  return site
}
