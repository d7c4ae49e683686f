import type {Hono} from 'hono'
import type {Lake} from '../lake.ts'
import {AssetStore} from '../assets/assetStore.ts'
import {registerImages} from '../assets/images.ts'
import {prerenderOnPublish} from '../assets/prerender.ts'
import {registerAssetUpload} from '../assets/upload.ts'
import {registerAccount} from '../sessions/account.ts'
import {registerLogin} from '../sessions/login.ts'
import {PresenceHub} from '../sessions/presence.ts'
import {registerDataApi} from './dataApi.ts'
import {registerGeoIp} from './geoip.ts'
import {registerHostedOnlyAnswers} from './hostedOnly.ts'
import {registerKeyValue} from './keyvalue.ts'
import {refuseMalformedPath} from './malformedPath.ts'
import {registerReferences} from './references.ts'
import type {LakeRoutes, LakeRoutesConfig} from './routesConfig.ts'
import {paceThrottledTokens} from './tokenPace.ts'

/**
 * Every route of the lake, mounted from this one place (server/app.ts calls it): the data API,
 * then what the Studio needs besides it (docs/studio-protocol.md §b): the user and project,
 * login, settings, references, assets and the public `/images/…`, presence, the Diagnostics
 * country (`geoip`), and hosted-only answers for the rest.
 */
export function registerLakeRoutes(app: Hono, lake: Lake, config: LakeRoutesConfig): LakeRoutes {
  // First: every route below reads a throttled client's token only at its pace.
  app.use('/:version/*', paceThrottledTokens(lake))
  const dataApi = registerDataApi(app, lake, config.maxAnonymousStreamsInAll)
  registerGeoIp(app)
  // Sessions are issued only through these routes, so their lifetimes are set here.
  lake.configureSessions({lifetimes: {idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs}})
  for (const prefix of ['users', 'projects', 'datasets', 'auth'])
    app.use(`/:version/${prefix}/*`, refuseMalformedPath)
  registerLogin(app, lake, config)
  registerKeyValue(app, lake, config.dataDir)
  registerAccount(app, lake)
  registerReferences(app, lake)
  const assets = new AssetStore(config.dataDir)
  registerAssetUpload(app, lake, config.siteUrl, assets)
  const images = registerImages(app, lake, assets, {dataDir: config.dataDir})
  const stopPrerender = config.prerenderUrls
    ? prerenderOnPublish(lake, images, config.prerenderUrls)
    : () => undefined
  registerHostedOnlyAnswers(app)
  const presence = new PresenceHub(lake, {
    allowOrigin: (origin) => config.isStudioOrigin(origin),
    trustProxy: config.trustProxy,
  })
  return {
    images,
    siteQuery: dataApi.siteQuery,
    close: () => {
      stopPrerender()
      images.close()
      dataApi.close()
      presence.close()
    },
    upgrade: (request, socket, head) => presence.upgrade(request, socket, head),
  }
}
