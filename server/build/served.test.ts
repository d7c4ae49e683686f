import {existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {currentBuild, removeOldBuilds, swapIn} from '../../scripts/build/swap.ts'
import {ClientAssets} from '../render/assets.ts'
import {serveStudio} from '../studio/static.ts'
import {buildsName, distName, stampName} from './layout.ts'
import {resolveServedBuild, type ServedBuild} from './served.ts'

// What the builder (scripts/build.ts) does to a checkout, on folders made here: each build a
// folder under .builds/ with the site's and the Studio's hashed files, `dist` swapped to the new
// one. A server that resolved its build at start must not notice.
let root: string
const served: ServedBuild[] = []

/** A build named `name` whose hashed files are app-<name>.js and index-<name>.js. */
function makeBuild(name: string, previous?: string) {
  const dir = join(root, buildsName, name)
  mkdirSync(join(dir, 'client', 'assets'), {recursive: true})
  mkdirSync(join(dir, 'studio', 'assets'), {recursive: true})
  writeFileSync(join(dir, 'client', 'assets', `app-${name}.js`), `/* ${name} */`)
  writeFileSync(join(dir, 'studio', 'index.html'), `<script src="/studio/assets/index-${name}.js">`)
  writeFileSync(join(dir, 'studio', 'assets', `index-${name}.js`), `/* studio ${name} */`)
  writeFileSync(
    join(dir, stampName),
    JSON.stringify({inputs: name, builtAt: new Date().toISOString(), previous}),
  )
}

function serve(): ServedBuild {
  const build = resolveServedBuild(root)
  served.push(build)
  return build
}

async function siteAsset(build: ServedBuild, file: string): Promise<string | undefined> {
  const assets = new ClientAssets(
    join(build.dir, 'client'),
    build.previous && join(build.previous, 'client'),
  )
  return (await assets.respond(`/assets/${file}`, undefined))?.text()
}

async function studio(build: ServedBuild, path: string): Promise<{status: number; body: string}> {
  const app = new Hono()
  app.get('/studio/*', (c) =>
    serveStudio(c, {
      distDir: join(build.dir, 'studio'),
      previousDistDir: build.previous && join(build.previous, 'studio'),
    }),
  )
  const res = await app.request(path)
  return {status: res.status, body: await res.text()}
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'scriptorium-builds-'))
  mkdirSync(join(root, buildsName))
})
afterEach(() => {
  for (const build of served.splice(0)) build.release()
  rmSync(root, {recursive: true, force: true})
})

describe('the build a server serves', () => {
  it('stays the one it started with when a new build is swapped in', async () => {
    makeBuild('a')
    swapIn(root, 'a')
    const running = serve()
    makeBuild('b', 'a')
    swapIn(root, 'b')
    expect(readlinkSync(join(root, distName))).toBe(join(buildsName, 'b'))
    expect(await siteAsset(running, 'app-a.js')).toBe('/* a */')
    expect(await siteAsset(running, 'app-b.js')).toBeUndefined()
    expect((await studio(running, '/studio/')).body).toContain('index-a.js')
    expect((await studio(running, '/studio/assets/index-a.js')).status).toBe(200)
  })

  it("after a restart, also serves the previous build's hashed files, and nothing else of it", async () => {
    makeBuild('a')
    makeBuild('b', 'a')
    swapIn(root, 'b')
    const restarted = serve()
    expect(await siteAsset(restarted, 'app-b.js')).toBe('/* b */')
    expect(await siteAsset(restarted, 'app-a.js')).toBe('/* a */')
    expect((await studio(restarted, '/studio/')).body).toContain('index-b.js')
    expect(await studio(restarted, '/studio/assets/index-a.js')).toEqual({
      status: 200,
      body: '/* studio a */',
    })
    expect((await studio(restarted, '/studio/assets/index-z.js')).status).toBe(404)
  })

  it('is dist itself before any build, so a build made later is served', () => {
    expect(serve().dir).toBe(join(root, distName))
  })
})

describe('cleaning up old builds', () => {
  it('keeps the current and the previous build and any a running server holds', () => {
    makeBuild('a')
    swapIn(root, 'a')
    const running = serve()
    makeBuild('b', 'a')
    makeBuild('c', 'b')
    makeBuild('d', 'c')
    swapIn(root, 'd')
    const removed = removeOldBuilds(root, ['d', 'c'])
    expect(removed).toEqual(['b'])
    expect(existsSync(join(root, buildsName, 'a'))).toBe(true)
    running.release()
    expect(removeOldBuilds(root, ['d', 'c'])).toEqual(['a'])
  })

  it('moves a dist folder from before .builds/ aside as a build of its own', () => {
    mkdirSync(join(root, distName, 'client'), {recursive: true})
    const name = currentBuild(root)
    expect(name).toMatch(/^before-/)
    expect(existsSync(join(root, buildsName, name!, 'client'))).toBe(true)
    expect(existsSync(join(root, distName))).toBe(false)
  })
})
