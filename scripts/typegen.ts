import {execFileSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'

/**
 * Sanity TypeGen, offline: extracts the schema (schemas/ → schema.json), then generates the
 * types of every `defineQuery` query into shared/sanity.types.ts. `TYPEGEN_DIR` (read by
 * sanity.cli.ts) writes both under another directory inside the project, which
 * scripts/typegenCheck.ts uses.
 */
export function runTypegen(outDir = '.'): void {
  const root = resolve(import.meta.dirname, '..')
  const out = resolve(root, outDir)
  mkdirSync(join(out, 'schemas'), {recursive: true})
  mkdirSync(join(out, 'web'), {recursive: true})
  const sanity = join(root, 'node_modules', '.bin', 'sanity')
  // No telemetry or update checks: the tool runs offline, and nothing about the owner leaves.
  const env = {...process.env, TYPEGEN_DIR: out, DO_NOT_TRACK: '1', NO_UPDATE_NOTIFIER: '1'}
  const run = (args: string[]) => execFileSync(sanity, args, {cwd: root, env, stdio: 'pipe'})
  // The CLI resolves --path against the project root, even an absolute one.
  // --force: the schema file is regenerated every run (the CLI refuses to overwrite it otherwise).
  run([
    'schema',
    'extract',
    '--force',
    '--path',
    relative(root, join(out, 'schemas', 'schema.json')),
  ])
  run(['typegen', 'generate'])
}

if (process.argv[1] === import.meta.filename) runTypegen()
