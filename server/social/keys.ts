import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {exportJwk, generateCryptoKeyPair, importJwk} from '@fedify/fedify'
import {privateFileMode, tightenMode} from '../util/durableFile.ts'
import {isRecord} from '../util/isRecord.ts'

/** The file in DATA_DIR holding the site actor's private keys (mode 0600, never in git). */
export const keysFileName = 'social-keys.json'

const algorithms = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const

/**
 * The actor's two key pairs, made once and kept: RSA for HTTP Signatures (what Mastodon
 * checks), Ed25519 for Object Integrity Proofs (FEP-8b32). Both are what Fedify's guide asks an
 * actor to publish. A new key would make every follower's cached key wrong, so the file is
 * never rewritten once there.
 */
export async function loadActorKeys(dataDir: string): Promise<CryptoKeyPair[]> {
  const file = join(dataDir, keysFileName)
  if (!existsSync(file)) {
    const pairs = await Promise.all(algorithms.map((a) => generateCryptoKeyPair(a)))
    const stored = await Promise.all(
      pairs.map(async (pair) => ({
        privateKey: await exportJwk(pair.privateKey),
        publicKey: await exportJwk(pair.publicKey),
      })),
    )
    try {
      writeFileSync(file, JSON.stringify(stored) + '\n', {mode: privateFileMode, flag: 'wx'})
    } catch (error) {
      // Another start won the race: its keys are the ones.
      if (!existsSync(file)) throw error
    }
  }
  tightenMode(file, privateFileMode)
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (!Array.isArray(parsed) || parsed.length !== algorithms.length)
    throw new Error(`${file} must hold the actor's ${algorithms.length} key pairs`)
  return Promise.all(
    parsed.map(async (entry: unknown) => {
      if (!isRecord(entry) || !isRecord(entry.privateKey) || !isRecord(entry.publicKey))
        throw new Error(`${file} holds a key pair that is not two JWKs`)
      return {
        privateKey: await importJwk(entry.privateKey, 'private'),
        publicKey: await importJwk(entry.publicKey, 'public'),
      }
    }),
  )
}
