import type {Hono} from 'hono'
import type {Lake} from '../lake.ts'
import {registerAccount} from './account.ts'
import type {StudioLakeConfig, StudioLakeRoutes} from './config.ts'
import {AssetStore} from './assetStore.ts'
import {registerAssetUpload} from './assets.ts'
import {registerHarmless} from './harmless.ts'
import {registerImages} from './images.ts'
import {registerKeyValue} from './keyvalue.ts'
import {registerLogin} from './login.ts'
import {refuseMalformedPath} from './malformedPath.ts'
import {PresenceHub} from './presence.ts'
import {registerReferences} from './references.ts'

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
