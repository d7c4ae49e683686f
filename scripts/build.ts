import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build, type InlineConfig} from 'vite'
import {buildsName, readStamp, stampName, type BuildStamp} from '../server/build/layout.ts'
import {inputsHash} from './build/inputs.ts'
import {acquireBuildLock} from './build/lock.ts'
import {currentBuild, removeOldBuilds, swapIn} from './build/swap.ts'

/**
 * Builds what the server serves: the site's client bundle and SSR renderer, and the Studio,
 * into a fresh folder under .builds/, then swaps `dist` to it with one rename
 * (server/build/layout.ts). A running server keeps serving the build it started with.
 * A part whose entry does not exist yet is skipped with a message.
 *
 * `--if-changed` (npm start) reuses the current build when nothing it was built from changed.
 * A build that had to wait for another one reuses that one's result if the sources are the same.
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const ifChanged = process.argv.includes('--if-changed')
// The Vite configs name their entries relative to the checkout.
process.chdir(root)
// Always a production build: under NODE_ENV=test (a build started from a test) or development,
// the JSX transform emits development calls the bundled production React does not have.
process.env.NODE_ENV = 'production'

const parts: {name: string; entry: string; outDir: string; options: InlineConfig}[] = [
  {name: 'site (client)', entry: 'web/entry.client.tsx', outDir: 'client', options: {}},
  {
    name: 'site (server renderer)',
    entry: 'web/entry.server.tsx',
    outDir: 'server',
    options: {build: {ssr: true}},
  },
  {name: 'studio', entry: 'studio/index.html', outDir: 'studio', options: {mode: 'studio'}},
]

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const started = performance.now()
mkdirSync(join(root, buildsName), {recursive: true})
const lock = await acquireBuildLock(join(root, buildsName, 'build.lock'))
try {
  const inputs = inputsHash(root)
  const current = currentBuild(root)
  const currentStamp = current ? readStamp(join(root, buildsName, current)) : undefined
  if ((ifChanged || lock.waited) && currentStamp?.inputs === inputs) {
    console.log(
      `[build] up to date: dist (${current}) was built from these sources ${currentStamp.builtAt}`,
    )
  } else {
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`
    const dir = join(root, buildsName, name)
    mkdirSync(dir)
    for (const part of parts) {
      if (!existsSync(join(root, part.entry))) {
        console.log(`[build] skipping ${part.name}: ${part.entry} does not exist`)
        continue
      }
      const partStarted = performance.now()
      await build({
        ...part.options,
        logLevel: 'warn',
        build: {...part.options.build, outDir: join(dir, part.outDir), emptyOutDir: true},
      })
      console.log(`[build] ${part.name} in ${seconds(partStarted)}`)
    }
    const stamp: BuildStamp = {
      inputs,
      builtAt: new Date().toISOString(),
      ...(current ? {previous: current} : {}),
    }
    writeFileSync(join(dir, stampName), `${JSON.stringify(stamp, null, 2)}\n`)
    swapIn(root, name)
    const removed = removeOldBuilds(root, [name, ...(current ? [current] : [])])
    console.log(
      `[build] dist is now .builds/${name} (${seconds(started)})${
        removed.length ? `; removed ${removed.length} old build(s)` : ''
      }`,
    )
  }
} finally {
  lock.release()
}
