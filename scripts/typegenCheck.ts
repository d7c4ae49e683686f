import {mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {runTypegen} from './typegen.ts'

/**
 * Fails when the committed generated files differ from what `npm run typegen` would write now:
 * a query or schema changed without regenerating (run `npm run typegen` and commit the result).
 */
const generated = ['schemas/schema.json', 'shared/sanity.types.ts']
const root = resolve(import.meta.dirname, '..')
mkdirSync(join(root, '.tmp'), {recursive: true})
const out = mkdtempSync(join(root, '.tmp', 'typegen-'))
try {
  runTypegen(out)
  // The generated header names the schema file it read: the same file, under `out`.
  const prefix = `${relative(root, out)}/`
  const fresh = (file: string) => readFileSync(join(out, file), 'utf8').replaceAll(prefix, '')
  const stale = generated.filter((file) => readFileSync(join(root, file), 'utf8') !== fresh(file))
  if (stale.length > 0) {
    console.error(`Stale generated types: ${stale.join(', ')}. Run \`npm run typegen\` and commit.`)
    process.exitCode = 1
  } else console.log('typegen: generated types are up to date')
} finally {
  rmSync(out, {recursive: true, force: true})
}
