/**
 * `node bench/run.ts [lake|web|images|studio|server|scale|memory|hostile|start|newsletter|social|search]…` — runs the named benchmarks
 * (all of them when none is named), prints the machine and each section's tables, and writes
 * bench/results/<date>.json and bench/results/latest.md (bench/README.md explains the figures).
 * A benchmark reports numbers; it never fails on one. It exits 1 only when a benchmark crashed.
 */
import {existsSync} from 'node:fs'
import {benches} from './benches.ts'
import {describeMachine, machineLine} from './machine.ts'
import {sectionMarkdown, writeResults} from './report.ts'
import type {BenchModule, SectionResult} from './types.ts'

function isBenchModule(value: unknown): value is BenchModule {
  return (
    typeof value === 'object' && value !== null && 'run' in value && typeof value.run === 'function'
  )
}

const requested = process.argv.slice(2)
const unknown = requested.filter((name) => !benches.includes(name))
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${benches.join(', ')}.`)
  process.exit(2)
}
const names = requested.length > 0 ? requested : benches
if (names.some((name) => name !== 'lake') && !existsSync('dist/client/.vite/manifest.json')) {
  console.error('No build in dist/: run `npm run build` first (the npm bench scripts do).')
  process.exit(2)
}

const machine = describeMachine()
const startedAt = new Date().toISOString()
const t0 = performance.now()
console.log(`Machine: ${machineLine(machine)}\n`)

const sections: SectionResult[] = []
let crashed = false
for (const name of names) {
  const sectionStart = new Date().toISOString()
  const start = performance.now()
  console.log(`=== ${name} ===`)
  try {
    const file = new URL(`./${name}.ts`, import.meta.url)
    if (!existsSync(file)) {
      console.log(`bench/${name}.ts does not exist yet; skipped.`)
      continue
    }
    // Loaded by path so that a benchmark still being written elsewhere never breaks the others.
    const loaded: unknown = await import(file.href)
    if (!isBenchModule(loaded))
      throw new Error(`bench/${name}.ts does not export run(): Promise<Section>`)
    const section = await loaded.run()
    const result = {
      ...section,
      name,
      startedAt: sectionStart,
      seconds: (performance.now() - start) / 1000,
    }
    sections.push(result)
    console.log(`\n${sectionMarkdown(result)}`)
  } catch (error) {
    crashed = true
    console.error(`[bench] ${name} failed:`, error)
  }
}

if (sections.length > 0) {
  const files = writeResults({
    machine,
    startedAt,
    seconds: (performance.now() - t0) / 1000,
    sections,
  })
  console.log(`Wrote ${files.json} and ${files.markdown}`)
}
console.log(`Total: ${Math.round((performance.now() - t0) / 1000)} s`)
process.exit(crashed ? 1 : 0)
