import {resolve} from 'node:path'
import {dataDirFromEnv} from '../../lake/index.ts'
import {BackupError} from '../errors.ts'
import {restoreBackup} from '../restore.ts'

/**
 * npm run lake:restore -- <file.tar.gz> [--force]
 * Restores a backup into DATA_DIR (default ./data); the server must be stopped. A non-empty
 * DATA_DIR is refused unless --force, which moves it aside (docs/operations.md).
 */
const usage =
  'Usage: npm run lake:restore -- <file.tar.gz> [--force]   (DATA_DIR selects the lake, default ./data)'

async function main(args: string[]): Promise<void> {
  const files = args.filter((arg) => !arg.startsWith('-'))
  const flags = args.filter((arg) => arg.startsWith('-'))
  if (files.length !== 1 || flags.some((flag) => flag !== '--force')) throw new BackupError(usage)
  const dataDir = dataDirFromEnv()
  const lakeToken = process.env.LAKE_TOKEN || undefined
  const result = await restoreBackup(resolve(files[0]), dataDir, {
    force: flags.includes('--force'),
    lakeToken,
  })
  const {counts, createdAt, schemaVersion} = result.manifest
  const lines = [
    `restored ${counts.documents} documents and ${counts.images} images from the backup of ${createdAt} into ${dataDir}`,
  ]
  if (result.migratedFrom !== undefined)
    lines.push(`migrated the database from schema ${result.migratedFrom} to the current one`)
  else lines.push(`schema ${schemaVersion}`)
  if (result.movedAside) lines.push(`the previous data dir is kept at ${result.movedAside}`)
  lines.push(
    result.tokenFile
      ? `log in to the Studio with the new owner token in ${result.tokenFile} (Studio sessions were not backed up)`
      : 'log in to the Studio with LAKE_TOKEN (Studio sessions were not backed up)',
  )
  for (const line of lines) console.log(`[lake:restore] ${line}`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`[lake:restore] ${error instanceof BackupError ? error.message : error}`)
  process.exitCode = 1
})
