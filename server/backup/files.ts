import {createHash} from 'node:crypto'
import {createReadStream, existsSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {imageFilePattern} from '../lake/index.ts'
import {imagesDir, keyFiles, keyValueFile} from './manifest.ts'

export interface SideFile {
  /** Path inside the archive (and inside the data dir). */
  path: string
  /** Where it is read from. */
  source: string
  bytes: number
}

/**
 * The data dir's files a backup carries besides the database: the Studio's key-value file, the
 * keys others rely on (manifest.ts, `keyFiles`), and every stored image (content-addressed and never rewritten, so listing them after the
 * snapshot covers every image the snapshot's documents refer to). Temporary `.tmp` files of an
 * upload in progress do not match the image name pattern and are left out.
 */
export function sideFiles(dataDir: string): SideFile[] {
  const files: SideFile[] = []
  const keyValue = join(dataDir, keyValueFile)
  if (existsSync(keyValue))
    files.push({path: keyValueFile, source: keyValue, bytes: statSync(keyValue).size})
  for (const name of keyFiles) {
    const source = join(dataDir, name)
    if (existsSync(source)) files.push({path: name, source, bytes: statSync(source).size})
  }
  const images = join(dataDir, imagesDir)
  if (existsSync(images)) {
    for (const name of readdirSync(images).sort()) {
      if (!imageFilePattern.test(name)) continue
      const source = join(images, name)
      files.push({path: `${imagesDir}/${name}`, source, bytes: statSync(source).size})
    }
  }
  return files
}

/** The file's sha256, hex, read as a stream. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) if (Buffer.isBuffer(chunk)) hash.update(chunk)
  return hash.digest('hex')
}
