import {startTestServer, type TestServer} from './server.ts'
import {SmtpSink} from './smtpSink.ts'

export {visitorAddresses} from './visitorAddresses.ts'

export interface ServerWithMail {
  server: TestServer
  /** What the server mailed (test/support/smtpSink.ts). */
  sink: SmtpSink
  /** Stops the server, then the SMTP server. */
  stop(): Promise<void>
}

/**
 * The real server with no seed, mailing through a real SMTP server on loopback, and believing
 * X-Forwarded-For from loopback, so that a test's requests can come from many visitors
 * (`visitorAddresses`). `env` adds to that (the newsletter's or the relay's own settings).
 */
export async function startServerWithMail(
  env: Record<string, string> = {},
): Promise<ServerWithMail> {
  const sink = await new SmtpSink().listen()
  try {
    const server = await startTestServer({
      SEED: '0',
      TRUST_PROXY: 'loopback',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      ...env,
    })
    return {
      server,
      sink,
      async stop() {
        await server.stop()
        await sink.close()
      },
    }
  } catch (error) {
    await sink.close()
    throw error
  }
}
