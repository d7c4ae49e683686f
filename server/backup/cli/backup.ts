import {resolve} from 'node:path'
import {dataDirFromEnv} from '../../lake/index.ts'
import {writeBackup} from '../backup.ts'
import {BackupError} from '../errors.ts'
import {describeBackup} from './describe.ts'

/**
 * npm run lake:backup -- <file.tar.gz>
 * Writes a backup of the lake in DATA_DIR (default ./data) to one archive (mode 0600) that
 * `tar -xzf` opens. Safe while the server runs and writes (docs/operations.md).
 */
const usage =
  'Usage: npm run lake:backup -- <file.tar.gz>   (DATA_DIR selects the lake, default ./data)'

async function main(args: string[]): Promise<void> {
  if (args.length !== 1 || args[0].startsWith('-')) throw new BackupError(usage)
  const dataDir = dataDirFromEnv()
  const result = await writeBackup(dataDir, resolve(args[0]))
  console.log(`[lake:backup] ${describeBackup(result)}`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`[lake:backup] ${error instanceof BackupError ? error.message : error}`)
  process.exitCode = 1
})
