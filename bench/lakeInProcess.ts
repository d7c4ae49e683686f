import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createClient} from '@sanity/client'
import {apiVersion, defaultDataset, localProjectId} from '../shared/constants.ts'
import {readConfig} from '../server/env.ts'
import type {Lake} from '../server/lake/index.ts'
import {startServer} from '../server/start.ts'
import type {SuiteTarget} from './groqSuiteLoad.ts'

/**
 * The production server in this process (empty lake, free loopback port, fresh data dir), so the
 * GROQ suite can load its datasets into the lake directly and query it over HTTP with the owner's
 * @sanity/client, built as the site builds it.
 */
export async function startLakeInProcess(): Promise<
  SuiteTarget & {lake: Lake; stop(): Promise<void>}
> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-lake-'))
  const server = await startServer(
    readConfig({PORT: '0', HTTPS_PORT: '0', SEED: '0', DATA_DIR: dataDir}),
  )
  const lake = server.lake
  if (!lake) throw new Error('the server has no local lake')
  const owner = createClient({
    projectId: localProjectId,
    dataset: defaultDataset,
    apiVersion,
    apiHost: server.url,
    useProjectHostname: false,
    useCdn: false,
    token: lake.token,
  })
  return {
    lake,
    owner,
    async stop() {
      await server.close()
      rmSync(dataDir, {recursive: true, force: true})
    },
  }
}
