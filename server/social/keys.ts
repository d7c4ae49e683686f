import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {exportJwk, generateCryptoKeyPair, importJwk} from '@fedify/fedify'
import {
  createFileDurablySync,
  moveAside,
  privateFileMode,
  tightenMode,
} from '../util/durableFile.ts'
import {isRecord} from '../util/isRecord.ts'

/** The file in DATA_DIR holding the site actor's private keys (mode 0600, never in git). */
export const keysFileName = 'social-keys.json'

const algorithms = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const

interface StoredPair {
  privateKey: JsonWebKey
  publicKey: JsonWebKey
}

/**
 * The actor's two key pairs, made once and kept: RSA for HTTP Signatures (what Mastodon
 * checks), Ed25519 for Object Integrity Proofs (FEP-8b32). Both are what Fedify's guide asks an
 * actor to publish. A new key would make every follower's cached key wrong, so the file is
 * never rewritten once there; it appears whole or not at all (a full disk at the first start
 * leaves no file, and the next start makes the keys).
 */
export async function loadActorKeys(dataDir: string): Promise<CryptoKeyPair[]> {
  const file = join(dataDir, keysFileName)
  let stored = readStoredPairs(file)
  if (!stored) {
    const made = await makePairs()
    // false: another start won the race, and its keys are the ones.
    if (createFileDurablySync(file, JSON.stringify(made) + '\n', privateFileMode)) stored = made
    else stored = readStoredPairs(file)
    if (!stored) throw new Error(`${keysFileName} could not be made`)
  }
  return Promise.all(
    stored.map(async (pair) => ({
      privateKey: await importJwk(pair.privateKey, 'private'),
      publicKey: await importJwk(pair.publicKey, 'public'),
    })),
  )
}

async function makePairs(): Promise<StoredPair[]> {
  const pairs = await Promise.all(algorithms.map((a) => generateCryptoKeyPair(a)))
  return Promise.all(
    pairs.map(async (pair) => ({
      privateKey: await exportJwk(pair.privateKey),
      publicKey: await exportJwk(pair.publicKey),
    })),
  )
}

/**
 * The stored pairs, or undefined when there is no file. A file that is not the pairs (torn by
 * an older version's write on a full disk, or edited by hand) is moved aside, not deleted, and
 * new keys are made: followers then refetch the actor's key on the next signature they check.
 */
function readStoredPairs(file: string): StoredPair[] | undefined {
  if (!existsSync(file)) return undefined
  tightenMode(file, privateFileMode)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    moveAside(file, error instanceof Error ? error.message : String(error))
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== algorithms.length || !parsed.every(isPair)) {
    moveAside(file, `not the actor's ${algorithms.length} key pairs`)
    return undefined
  }
  return parsed
}

function isPair(entry: unknown): entry is StoredPair {
  return isRecord(entry) && isRecord(entry.privateKey) && isRecord(entry.publicKey)
}

/**
 * `loadActorKeys`, started now and awaited by whatever signs, which sees a failure. It is said
 * once here, so that a failed first start (a full disk) is a log line, not an unhandled
 * rejection that stops the process.
 */
export function actorKeys(dataDir: string): Promise<CryptoKeyPair[]> {
  const keys = loadActorKeys(dataDir)
  keys.catch((error: unknown) =>
    console.error(
      '[social] the actor keys could not be made; signing fails until a restart',
      error,
    ),
  )
  return keys
}
