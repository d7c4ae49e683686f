import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

/**
 * The layers of the repository (docs/architecture.md, "Layers"), checked on every import:
 * the lake is the lowest layer of the server and other folders enter it only by its door,
 * server/lake/index.ts; the lake imports only itself, shared/, the app's small helpers
 * (server/util/) and a few leaf HTTP utilities; its tests start the whole app only where listed;
 * nothing outside e2e/ imports the browser tests;
 * bench/ imports no test code; of the server, only server/render/ imports the site (web/), and
 * only its SSR entry and the blog's address reading; and no module imports itself back through
 * others.
 */
const root = resolve(import.meta.dirname, '../..')
const lakeDir = 'server/lake/'
const lakeDoor = 'server/lake/index.ts'
const skipped = new Set(['node_modules', 'dist', '.git', 'data', 'coverage', '.tmp'])

/** Files outside the lake that it may import: leaf HTTP utilities with no view of the server. */
const lakeMayImport = new Set([
  'server/http/body.ts',
  'server/http/clientAddress.ts',
  'server/http/requestHeader.ts',
  'server/http/log.ts',
  'server/http/publicOrigin.ts',
  'server/http/cachedBody.ts',
  'server/http/oneTimeTokens.ts',
  'server/http/httpError.ts',
  'server/http/errorResponse.ts',
  'server/compress.ts',
  'server/html.ts',
])

/**
 * What lake code (not its tests) may import of shared/: facts the lake itself needs (project id,
 * dataset, API versions, the Studio's login path; the text-query syntax it evaluates; the owner
 * token's strength rule). The site's knowledge there (its queries, image URL rules, types,
 * configuration, addresses) the lake never imports: the lake serves a site but does not know it,
 * and the wiring hands in what it must prepare for one (server/siteForLake.ts). Its tests may
 * run the site's real queries and URLs against it.
 */
const lakeMayImportOfShared = new Set([
  'shared/constants.ts',
  'shared/textQuerySyntax.ts',
  'shared/ownerAccess.ts',
])

/**
 * The one server folder that imports the site, and what it imports: server/render/ renders the
 * site's React entry (the SSR bundle's types) and keys its render cache by the site's own reading
 * of the blog's and the search page's address. Whatever else the server and the site both need (queries and their
 * generated types, the site's configuration, its addresses and identity) lives in shared/.
 */
const renderDir = 'server/render/'
const renderMayImport = new Set(['web/entry.server.tsx', 'web/blogTabs.ts', 'web/searchTerms.ts'])

/**
 * What the lake's own tests may import besides: the test helpers every unit test shares, and the
 * Studio's login settings, which the login test proves the lake answers as the Studio expects.
 */
const lakeTestsMayImport = (path: string) =>
  path.startsWith('test/support/') || path === 'studio/env.ts'

/**
 * The lake's tests that start the whole app (test/support/server.ts), each for what only the
 * whole app shows; every other lake test starts the lake alone (test/support/lakeUnderTest.ts)
 * or builds its routes in process.
 */
const lakeTestsOfTheWholeApp = new Set([
  // Runaway queries delay neither an honest client nor a page render (server/render/).
  'server/lake/api/hostile.test.ts',
  // A nested-JSON flood on the query endpoint, on a server whose renderer is warm, as in the review.
  'server/lake/api/nestedBody.test.ts',
  // A full disk: the contact relay's 507 (server/contact/) beside the lake's, on one small disk.
  'server/lake/files/diskFull.test.ts',
  // Due releases are published when the process starts (server/start.ts starts the scheduler).
  'server/lake/releases/scheduler.restart.test.ts',
])

/**
 * Where the whole server may be started (in process through server/app.ts or server/start.ts,
 * or as a process of server/main.ts), each for what only the whole server shows; every other
 * test starts what it tests: the lake alone (test/support/lakeUnderTest.ts), a feature's routes
 * on a Hono app, or a handler in process. The browser tests (e2e/) drive the whole product.
 */
const testsOfTheWholeServer = new Set([
  ...lakeTestsOfTheWholeApp,
  // The composition itself: the features in their order, the process's start, stop and data dir.
  'server/app.test.ts',
  'server/main.test.ts',
  'server/start.test.ts',
  'server/dataDir.test.ts',
  // Backups of a running server: its lock, schedule and the restore a restart reads.
  'server/backup/backup.test.ts',
  'server/backup/releases.test.ts',
  'server/backup/restore.test.ts',
  'server/backup/schedule.test.ts',
  // The HTTP edge sits in front of every feature: its limits are the whole server's.
  'server/http/body.test.ts',
  'server/http/connections.test.ts',
  'server/http/drain.test.ts',
  'server/http/edge.test.ts',
  'server/http/health.test.ts',
  'server/http/hostCheck.test.ts',
  'server/http/http2Abuse.test.ts',
  'server/http/logVolume.test.ts',
  'server/http/noSniff.test.ts',
  'server/http/securityHeaders.test.ts',
  'server/http/slowBodies.test.ts',
  'server/http/upgrade.test.ts',
  // Reader statistics are counted in front of every feature the site serves (the scripted day).
  'server/stats/feature.test.ts',
  // The social web as another server meets it: WebFinger, the actor, signed deliveries.
  'server/social/discovery.test.ts',
  'server/social/federate.test.ts',
  'server/social/inboxShapes.test.ts',
  'server/social/privateAddresses.test.ts',
  // Two instances of this server federating with each other: two whole servers.
  'server/social/twoInstances.test.ts',
  // Deliveries as followers' servers get them (a loopback inbox sink), a kill -9 mid-delivery,
  // and the owner's blocks route with what a block does to deliveries.
  'server/social/delivery.test.ts',
  'server/social/deliveryCrash.test.ts',
  'server/social/ownerRoutes.test.ts',
  // A site process in front of a content process: two whole servers.
  'server/forward/feature.test.ts',
  'server/forward/federation.test.ts',
  'server/live/scale.test.ts',
  'server/stats/split.test.ts',
  // Preview, the Studio's routes and the render cache's freshness cross the lake, the Studio and the site.
  'server/preview/preview.test.ts',
  'server/render/freshness.test.ts',
  'server/render/syncTags.test.ts',
  'server/studio/cors.test.ts',
  'server/studio/feature.test.ts',
  'server/studio/proxy.test.ts',
])

/**
 * The server's features, each a folder that others do not reach into: what two of them share
 * lives below them (server/http/, server/util/, server/mail/, server/live/, server/build/), and
 * the wiring (server/*.ts) hands one feature's services to another.
 */
const featureDirs = [
  'backup',
  'contact',
  'discovery',
  'forward',
  'newsletter',
  'preview',
  'render',
  'social',
  'stats',
  'studio',
]
const featureOf = (path: string) =>
  featureDirs.find((dir) => path.startsWith(`server/${dir}/`)) ?? undefined

/** The modules that start the whole server, in process or as a process. */
const serverStarters = new Set(['server/app.ts', 'server/start.ts', 'server/main.ts'])

/** Every TypeScript file of the repository, as repository paths. */
function sourceFiles(dir = ''): string[] {
  return readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/**
 * Repository paths of the relative code modules a file imports (static, for effect, dynamic,
 * re-exports, workers). Data files are not layers: the seed's default content/seed.ndjson is read, not imported.
 */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const specifiers = [
    ...text.matchAll(/\bfrom\s+'(\.[^']+)'/g),
    ...text.matchAll(/^import\s+'(\.[^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
    ...text.matchAll(/\bnew URL\(\s*'(\.[^']+)'\s*,\s*import\.meta\.url/g),
  ]
    .map((match) => match[1])
    .filter((specifier) => /\.tsx?$/.test(specifier))
  return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)))
}

const files = sourceFiles()
const graph = new Map(files.map((file) => [file, relativeImports(file)]))
const edges = [...graph].flatMap(([file, imports]) => imports.map((path) => ({file, path})))
const isUnitTest = (file: string) => /\.test\.tsx?$/.test(file)
const isTest = (file: string) => isUnitTest(file) || file.includes('/testing/')
const say = ({file, path}: {file: string; path: string}) => `${file} imports ${path}`

/** The import cycles: each a path of files that leads back to its first. */
function cycles(): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  return found
}

describe('the layers of the repository', () => {
  it('sees the whole repository, the lake and its test helpers included', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(files.filter((file) => file.startsWith(`${lakeDir}testing/`)).length).toBeGreaterThan(0)
  })

  it('outside the lake, files import the lake only through server/lake/index.ts', () => {
    const violations = edges.filter(
      ({file, path}) => !file.startsWith(lakeDir) && path.startsWith(lakeDir) && path !== lakeDoor,
    )
    expect(violations.map(say)).toEqual([])
  })

  it('lake files, tests and test helpers included, import only the lake, shared/ and the helpers', () => {
    // Only a lake test (`*.test.ts`) may import the test helpers: the lake's own helpers for
    // tests (server/lake/testing/, run as child processes) are lake files like any other.
    const violations = edges.filter(
      ({file, path}) =>
        file.startsWith(lakeDir) &&
        !path.startsWith(lakeDir) &&
        !path.startsWith('shared/') &&
        !path.startsWith('server/util/') &&
        !lakeMayImport.has(path) &&
        !(isUnitTest(file) && lakeTestsMayImport(path)),
    )
    expect(violations.map(say)).toEqual([])
  })

  it('the lake imports nothing of the site: of shared/, only the facts it needs itself', () => {
    const violations = edges.filter(
      ({file, path}) =>
        file.startsWith(lakeDir) &&
        !isUnitTest(file) &&
        path.startsWith('shared/') &&
        !lakeMayImportOfShared.has(path),
    )
    expect(violations.map(say)).toEqual([])
  })

  it("the lake's routes' common floor is below them: assets/, sessions/ and http/ import nothing of api/", () => {
    // api/routes.ts mounts assets/ and sessions/; what they share with api/ for a request
    // (identity, the dataset check, capped bodies) lives in server/lake/http/.
    const floors = ['assets/', 'sessions/', 'http/'].map((dir) => `${lakeDir}${dir}`)
    const violations = edges.filter(
      ({file, path}) =>
        floors.some((dir) => file.startsWith(dir)) && path.startsWith(`${lakeDir}api/`),
    )
    expect(violations.map(say)).toEqual([])
  })

  it("the lake's outside imports, server/util/ and shared/ import nothing above them", () => {
    const below = (path: string) =>
      path.startsWith('shared/') || path.startsWith('server/util/') || lakeMayImport.has(path)
    const violations = edges.filter(({file, path}) => below(file) && !isTest(file) && !below(path))
    expect(violations.map(say)).toEqual([])
  })

  it('tests start a whole server only where listed, however they start it', () => {
    const spawnsMain = (file: string) =>
      /spawn\([^)]*'server\/main\.ts'/.test(readFileSync(join(root, file), 'utf8'))
    const reaches = new Map<string, boolean>()
    const startsServer = (file: string, seen = new Set<string>()): boolean => {
      if (serverStarters.has(file) || spawnsMain(file)) return true
      if (reaches.has(file)) return reaches.get(file)!
      if (seen.has(file)) return false
      seen.add(file)
      const found = (graph.get(file) ?? []).some((next) => startsServer(next, seen))
      reaches.set(file, found)
      return found
    }
    const starters = files.filter(
      (file) =>
        /\.test\.tsx?$/.test(file) &&
        !file.startsWith('e2e/') &&
        file !== 'test/repo/layering.test.ts' &&
        startsServer(file),
    )
    expect(starters.filter((file) => !testsOfTheWholeServer.has(file))).toEqual([])
    // The list holds no test that no longer starts one.
    expect([...testsOfTheWholeServer].filter((file) => !starters.includes(file))).toEqual([])
  })

  it("no feature imports another feature's files", () => {
    const violations = edges.filter(({file, path}) => {
      const from = featureOf(file)
      const to = featureOf(path)
      return from !== undefined && to !== undefined && from !== to && !isTest(file)
    })
    expect(violations.map(say)).toEqual([])
  })

  it('only e2e/ imports e2e/', () => {
    const violations = edges.filter(
      ({file, path}) => !file.startsWith('e2e/') && path.startsWith('e2e/'),
    )
    expect(violations.map(say)).toEqual([])
  })

  it('bench/ imports no test code', () => {
    const violations = edges.filter(
      ({file, path}) =>
        file.startsWith('bench/') &&
        (isTest(path) || path.startsWith('test/') || path.startsWith('e2e/')),
    )
    expect(violations.map(say)).toEqual([])
  })

  it('the server imports web/ only where server/render/ renders the site', () => {
    const violations = edges.filter(
      ({file, path}) =>
        file.startsWith('server/') &&
        path.startsWith('web/') &&
        !(file.startsWith(renderDir) && renderMayImport.has(path)),
    )
    expect(violations.map(say)).toEqual([])
  })

  it('has no import cycles', () => {
    expect(cycles().map((cycle) => cycle.join(' → '))).toEqual([])
  })
})
