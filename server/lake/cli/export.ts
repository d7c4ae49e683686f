import {createWriteStream} from 'node:fs'
import {once} from 'node:events'
import type {Writable} from 'node:stream'
import {exportLines, typesParam} from '../api/export.ts'
import {CliError, dataDirFromEnv, openLake} from './openLake.ts'

/**
 * npm run lake:export -- <file.ndjson | -> [--types post,…]
 * Writes every document of the lake in DATA_DIR (default ./data), drafts included, as NDJSON
 * sorted by _id: the format `sanity dataset import` reads. Safe while the server runs (it reads).
 */
const usage =
  'Usage: npm run lake:export -- <file.ndjson | -> [--types a,b]   (DATA_DIR selects the lake, default ./data)'

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain')
}

async function main(args: string[]): Promise<void> {
  const typesAt = args.indexOf('--types')
  const types = typesAt >= 0 ? typesParam(args[typesAt + 1]) : undefined
  if (typesAt >= 0 && !types) throw new CliError(usage)
  const rest = args.filter((_, i) => typesAt < 0 || (i !== typesAt && i !== typesAt + 1))
  if (rest.length !== 1 || rest[0].startsWith('--')) throw new CliError(usage)
  const target = rest[0]
  const dataDir = dataDirFromEnv()
  const lake = openLake(dataDir, {write: false, mustExist: true})
  try {
    const out = target === '-' ? process.stdout : createWriteStream(target)
    let count = 0
    for (const line of exportLines(lake, {types})) {
      await write(out, line)
      count++
    }
    if (out !== process.stdout) {
      out.end()
      await once(out, 'finish')
      console.log(`[lake:export] wrote ${count} documents from ${dataDir} to ${target}`)
    }
  } finally {
    lake.close()
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`[lake:export] ${error instanceof CliError ? error.message : error}`)
  process.exitCode = 1
})
