import {existsSync} from 'node:fs'
import {build} from 'vite'

/**
 * Builds what the server serves: the site's client bundle and SSR renderer, and the Studio.
 * A part whose entry does not exist yet is skipped with a message.
 */
const parts = [
  {name: 'site (client)', entry: 'web/entry.client.tsx', options: {}},
  {name: 'site (server renderer)', entry: 'web/entry.server.tsx', options: {build: {ssr: true}}},
  {name: 'studio', entry: 'studio/index.html', options: {mode: 'studio'}},
]

for (const part of parts) {
  if (!existsSync(part.entry)) {
    console.log(`[build] skipping ${part.name}: ${part.entry} does not exist`)
    continue
  }
  const started = performance.now()
  await build({...part.options, logLevel: 'warn'})
  console.log(`[build] ${part.name} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
