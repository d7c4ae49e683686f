import type {Hono} from 'hono'
import type {Lake} from '../lake.ts'
import {registerAccount} from '../sessions/account.ts'
import type {StudioLakeConfig, StudioLakeRoutes} from '../api/routesConfig.ts'
import {AssetStore} from '../assets/assetStore.ts'
import {registerAssetUpload} from '../assets/upload.ts'
import {registerHarmless} from '../api/hostedOnly.ts'
import {registerImages} from '../assets/images.ts'
import {registerKeyValue} from '../api/keyvalue.ts'
import {registerLogin} from '../sessions/login.ts'
import {refuseMalformedPath} from '../api/malformedPath.ts'
import {PresenceHub} from '../sessions/presence.ts'
import {registerReferences} from '../api/references.ts'

/**
 * The lake endpoints the Studio needs besides the data API (docs/studio-protocol.md §b): the user and
 * project, login, settings, references, assets, presence, and harmless answers for the rest.
 */
export function registerStudioLakeRoutes(
  app: Hono,
  lake: Lake,
  config: StudioLakeConfig,
): StudioLakeRoutes {
  // Sessions are issued only through these routes, so their lifetimes are set here.
  lake.auth.configure({lifetimes: {idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs}})
  for (const prefix of ['users', 'projects', 'datasets', 'auth'])
    app.use(`/:version/${prefix}/*`, refuseMalformedPath)
  registerLogin(app, lake, config)
  registerKeyValue(app, lake, config.dataDir)
  registerAccount(app, lake)
  registerReferences(app, lake)
  const assets = new AssetStore(config.dataDir)
  registerAssetUpload(app, lake, config.siteUrl, assets)
  registerImages(app, lake, assets)
  registerHarmless(app)
  const presence = new PresenceHub(lake, {
    allowOrigin: (origin) => config.isStudioOrigin(origin),
    trustProxy: config.trustProxy,
  })
  return {
    close: () => presence.close(),
    upgrade: (request, socket, head) => presence.upgrade(request, socket, head),
  }
}
