import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'

/** Where a hosted process finds the write token when SANITY_API_WRITE_TOKEN is not set. */
export const writeTokenFile = 'sanity-write-token'

/** The hosted dataset's write token, or why the social web cannot have one (one log line). */
export type WriteToken = {token: string} | {reason: string}

/**
 * SANITY_API_WRITE_TOKEN, else DATA_DIR/sanity-write-token. The file must be the owner's alone
 * (0600), like every secret in the data dir: a token others can read is refused, not used.
 */
export function hostedWriteToken(fromEnv: string | undefined, dataDir: string): WriteToken {
  if (fromEnv) return {token: fromEnv}
  const file = join(dataDir, writeTokenFile)
  let mode: number
  try {
    mode = statSync(file).mode
  } catch {
    return {
      reason: `no SANITY_API_WRITE_TOKEN (nor ${file}): followers and comments live in the hosted dataset and need an Editor token (docs/hosted.md)`,
    }
  }
  if ((mode & 0o077) !== 0)
    return {
      reason: `${file} is readable by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
    }
  const token = readFileSync(file, 'utf8').trim()
  return token ? {token} : {reason: `${file} is empty`}
}
