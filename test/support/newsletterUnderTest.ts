import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {getRequestListener} from '@hono/node-server'
import {Hono} from 'hono'
import type {AppContext} from '../../server/context.ts'
import {readConfig, type ServerConfig} from '../../server/env.ts'
import {clientMiddleware} from '../../server/http/clientAddress.ts'
import {errorResponse} from '../../server/http/errorResponse.ts'
import type {Lake} from '../../server/lake/index.ts'
import {ContentEvents} from '../../server/live/contentEvents.ts'
import {mountNewsletter} from '../../server/newsletter/feature.ts'
import {startLakeUnderTest} from './lakeUnderTest.ts'
import {SmtpSink} from './smtpSink.ts'
import {visitorAddresses} from './visitorAddresses.ts'

export interface NewsletterUnderTest {
  server: {
    /** http://127.0.0.1:port, where the newsletter's routes answer. */
    url: string
    /** Its configuration; `siteUrl` is http://localhost:port, as a server's default SITE_URL. */
    config: ServerConfig
    lake: Lake
  }
  /** What the newsletter mailed (test/support/smtpSink.ts). */
  sink: SmtpSink
  /** The subscribe form posted natively (answers not followed), each time by another visitor. */
  subscribe(email: string, headers?: Record<string, string>): Promise<Response>
  stop(): Promise<void>
}

/**
 * The newsletter as a reader meets it, without the rest of the server: its routes
 * (server/newsletter/feature.ts) on a Hono app behind the app's client identity (X-Forwarded-For
 * believed from loopback, so a test's requests come from many visitors: ./visitorAddresses.ts) and error responder, on an empty lake alone (./lakeUnderTest.ts), mailing
 * through a real SMTP server on loopback. `env` adds the newsletter's settings, as the server's
 * environment would (e.g. NEWSLETTER_CONFIRM_PER_HOUR).
 */
export async function startNewsletterUnderTest(
  env: Record<string, string> = {},
): Promise<NewsletterUnderTest> {
  const sink = await new SmtpSink().listen()
  const lake = await startLakeUnderTest()
  const config = readConfig({
    PORT: '0',
    HTTPS_PORT: '0',
    SEED: '0',
    TRUST_PROXY: 'loopback',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    ...env,
    DATA_DIR: lake.dataDir,
  })
  let url = ''
  const ctx: AppContext = {
    config,
    lake: lake.lake,
    internalOrigin: () => url,
    contentOrigin: () => url,
    contentHeaders: () => ({}),
    contentEvents: new ContentEvents(),
  }
  const app = new Hono()
  app.use(clientMiddleware(config.trustProxy))
  app.onError(errorResponse)
  const feature = mountNewsletter(app, ctx)
  const http = createServer(getRequestListener(app.fetch))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const port = (http.address() as AddressInfo).port
  url = `http://127.0.0.1:${port}`
  config.port = port
  config.siteUrl = `http://localhost:${port}`
  const nextVisitor = visitorAddresses()
  return {
    server: {url, config, lake: lake.lake},
    sink,
    subscribe: (email, headers = {}) =>
      fetch(`${url}/api/subscribe`, {
        method: 'POST',
        body: new URLSearchParams({email}),
        headers: {'x-forwarded-for': nextVisitor(), ...headers},
        redirect: 'manual',
      }),
    async stop() {
      await feature?.close?.()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
      await lake.stop()
      await sink.close()
    },
  }
}
