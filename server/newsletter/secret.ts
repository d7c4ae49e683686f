import {randomBytes} from 'node:crypto'
import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/** The file in DATA_DIR holding the newsletter's signing key (mode 0600, never in git). */
export const secretFileName = 'newsletter-secret'

/**
 * The key that signs confirmation and unsubscribe links and salts the hashes kept of
 * unsubscribed addresses: created once, 32 random bytes, readable by the server's user only.
 */
export function loadNewsletterSecret(dataDir: string): Buffer {
  const file = join(dataDir, secretFileName)
  try {
    writeFileSync(file, randomBytes(32).toString('base64url') + '\n', {mode: 0o600, flag: 'wx'})
  } catch (error) {
    // 'wx' refuses an existing file: that is the secret of an earlier start, kept as it is.
    if (!existsSync(file)) throw error
  }
  // A copy restored without its mode (e.g. by hand) is made private again.
  chmodSync(file, 0o600)
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')
  if (key.length < 32) throw new Error(`${file} must hold at least 32 bytes (base64url)`)
  return key
}
