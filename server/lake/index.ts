/**
 * The lake's one door: every file outside server/lake/ imports the lake from here and nowhere
 * else (test/repo/layering.test.ts checks it). What is not listed here is the lake's own.
 */

// The lake itself, its documents, and where its routes are mounted (server/app.ts).
export {Lake} from './lake.ts'
export type {WarmQuery} from './queryPool/queryWorker.ts'
export type {PrerenderUrls} from './assets/prerender.ts'
export type {Doc} from './types.ts'
export {registerLakeRoutes} from './api/routes.ts'
export type {LakeRoutes} from './api/routesConfig.ts'
export type {SiteQuery} from './api/siteQuery.ts'
export {touchesPublic} from './events/publicChange.ts'
export {seedFile, seedIfEmpty} from './seed.ts'
// Publishes scheduled releases on time; the content process starts it (server/start.ts).
export {ReleaseScheduler} from './releases/scheduler.ts'
export {importDocuments, parseNdjson} from './importer.ts'

// Sanity-shaped errors and the per-client caps, for routes that speak the lake's API (preview's
// content proxy, the Studio's CORS preflight).
export {LakeError, notFound, unauthorized} from './errors.ts'
export {ClientCounter, overCap} from './api/clientCaps.ts'
export {maxAnonymousQueryBodyBytes} from './api/queryBodies.ts'

// The site's own server-side client, trusted by the lake (api/internal.ts), and what separate
// site processes send to the same effect (SITE_READ_TOKEN).
export {internalHeaders, siteReadHeaders} from './api/internal.ts'

// Preview sessions: opened from the lake's Studio sessions, or kept alone in hosted mode.
export {PreviewSessions, previewSecretType} from './sessions/previewSessions.ts'

// What backup and restore need of the data dir: the database, the owner token, the images.
export {Store, schemaVersion} from './store/store.ts'
export {resolveOwnerToken} from './auth.ts'
export {imageFilePattern} from './assets/assetStore.ts'

// The seed's image assets, described as the lake's upload describes them (content/seedImages.ts).
export {AssetStore} from './assets/assetStore.ts'
export {imageAssetDocument} from './assets/upload.ts'
export {exportLines} from './api/export.ts'
export {dataDirFromEnv} from './cli/openLake.ts'

// The query workers, for the readiness check's test of a pool that cannot start.
export {QueryPool} from './queryPool/queryPool.ts'
