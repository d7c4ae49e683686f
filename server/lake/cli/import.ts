import {LakeError} from '../errors.ts'
import {importFile, type ImportMode} from '../importer.ts'
import {CliError, dataDirFromEnv, openLake} from './openLake.ts'
import {messageOf} from '../../util/messageOf.ts'

/**
 * npm run lake:import -- <file.ndjson> [--replace | --missing]
 * Imports a `sanity dataset export`-style NDJSON file into the lake in DATA_DIR (default
 * ./data). Like `sanity dataset import`: existing ids fail the import unless --replace
 * (overwrite) or --missing (skip) is given. The server must not be running.
 */
const usage =
  'Usage: npm run lake:import -- <file.ndjson> [--replace | --missing]   (DATA_DIR selects the lake, default ./data)'

async function main(args: string[]): Promise<void> {
  const files = args.filter((arg) => !arg.startsWith('--'))
  const flags = new Set(args.filter((arg) => arg.startsWith('--')))
  const unknown = [...flags].filter((flag) => flag !== '--replace' && flag !== '--missing')
  if (
    files.length !== 1 ||
    unknown.length > 0 ||
    (flags.has('--replace') && flags.has('--missing'))
  )
    throw new CliError(usage)
  const [file] = files
  if (/\.(tar\.gz|tgz)$/.test(file))
    throw new CliError(`${file}: extract it first (tar -xzf) and import its data.ndjson`)
  const mode: ImportMode = flags.has('--replace')
    ? 'replace'
    : flags.has('--missing')
      ? 'missing'
      : 'fail'
  const dataDir = dataDirFromEnv()
  const lake = openLake(dataDir, {write: true, mustExist: false})
  try {
    const started = performance.now()
    const result = await importFile(lake, file, {
      mode,
      onProgress: (done, total) => console.log(`[lake:import] ${done}/${total} documents`),
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const skipped = result.skipped > 0 ? `, ${result.skipped} existing skipped` : ''
    console.log(
      `[lake:import] imported ${result.documents - result.skipped} documents from ${file} into ${dataDir} in ${seconds} s (${result.transactions} transactions${skipped})`,
    )
  } finally {
    lake.close()
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known =
    error instanceof CliError ||
    error instanceof LakeError ||
    (error instanceof Error && 'code' in error && error.code === 'ENOENT')
  console.error(`[lake:import] ${known ? messageOf(error) : error}`)
  process.exitCode = 1
})
