import {startAutoRedirects} from '../content/autoRedirects.ts'
import {upgradeSiteCopy} from '../content/upgrade.ts'
import {acquireDataDirLock} from './backup/lock.ts'
import type {ServerConfig} from './env.ts'
import {Lake, ReleaseScheduler, seedIfEmpty} from './lake/index.ts'
import {siteSearchWarmQuery} from './siteForLake.ts'

/** The content a process keeps in its own data dir: the lake, and what runs beside it. */
export interface OwnedContent {
  lake: Lake
  /** Stops the release scheduler, closes SQLite and releases the data dir. */
  close(): void
}

/**
 * What the content process keeps up to date in its lake for the site: a data dir from before the
 * site's copy was content gets its documents (docs/site-editing.md), and a published post's or
 * category's slug change leaves a 301 from the old address from now on.
 */
export async function keepSiteContent(lake: Lake): Promise<void> {
  await upgradeSiteCopy(lake)
  startAutoRedirects(lake)
}

/**
 * Opens the lake in the data dir unless this process keeps no data (a site process, LAKE_URL,
 * or hosted mode): takes the data dir's lock (a restore refuses while it is held), seeds an
 * empty lake (SEED), brings an older data dir's site copy up to date, starts the automatic
 * redirects and publishes the scheduled releases that fell due while the process was down.
 */
export async function openOwnedContent(config: ServerConfig): Promise<OwnedContent | undefined> {
  if (config.hostedProjectId || config.lakeUrl) return undefined
  const dataLock = acquireDataDirLock(config.dataDir)
  const lake = new Lake({
    dataDir: config.dataDir,
    projectId: config.projectId,
    dataset: config.dataset,
    token: config.lakeToken,
    siteReadToken: config.siteReadToken,
    // The lake knows no site: what it warms for the site's search is handed in.
    warmQuery: siteSearchWarmQuery,
  })
  if (config.seed) await seedIfEmpty(lake, {dataDir: config.dataDir, siteUrl: config.siteUrl})
  await keepSiteContent(lake)
  // Publishes scheduled releases on time, and at start those due while the process was down.
  const scheduler = new ReleaseScheduler(lake)
  await scheduler.start()
  return {
    lake,
    close() {
      scheduler.stop()
      lake.close()
      dataLock.release()
    },
  }
}
