import {randomBytes} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {
  createFileDurablySync,
  moveAside,
  privateFileMode,
  tightenMode,
} from '../util/durableFile.ts'

/** The file in DATA_DIR holding the newsletter's signing key (mode 0600, never in git). */
export const secretFileName = 'newsletter-secret'

/**
 * The key that signs confirmation and unsubscribe links and salts the hashes kept of
 * unsubscribed addresses: created once, 32 random bytes, readable by the server's user only.
 */
export function loadNewsletterSecret(dataDir: string): Buffer {
  const file = join(dataDir, secretFileName)
  // Appears whole or not at all; an existing file is the secret of an earlier start, kept.
  createFileDurablySync(file, randomBytes(32).toString('base64url') + '\n', privateFileMode)
  // A copy restored without its mode (e.g. by hand) is made private again.
  tightenMode(file, privateFileMode)
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')
  if (key.length >= 32) return key
  // Too short to have ever signed a link (the server refuses to start with it): an older
  // version's write torn by a full disk, or a hand edit. Kept aside, and a new key is made.
  moveAside(file, 'shorter than 32 bytes')
  return loadNewsletterSecret(dataDir)
}
