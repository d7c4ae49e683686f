import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {readConfig} from '../../server/env.ts'
import {startServer, type RunningServer} from '../../server/start.ts'

/** The real server in process, as `startTestServer` started it. */
export type TestServer = Awaited<ReturnType<typeof startTestServer>>

/**
 * Starts the real server in process on free loopback ports with a fresh data dir.
 * `env` is read like process.env (e.g. {SEED: '0', SMTP_URL: ...}).
 */
export async function startTestServer(
  env: Record<string, string> = {},
): Promise<RunningServer & {dataDir: string; stop(): Promise<void>}> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'scriptorium-test-'))
  const server = await startServer(
    readConfig({PORT: '0', HTTPS_PORT: '0', ...env, DATA_DIR: dataDir}),
  )
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close()
      if (!env.DATA_DIR) rmSync(dataDir, {recursive: true, force: true})
    },
  }
}
