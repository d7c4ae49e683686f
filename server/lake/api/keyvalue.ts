import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Context, Hono} from 'hono'
import {BodyTooLargeError, readBody} from '../../http/body.ts'
import {badRequest, LakeError} from '../errors.ts'
import {requireIdentity} from '../http/request.ts'
import {storageError} from '../files/diskFull.ts'
import {
  ensurePrivateDir,
  moveAside,
  privateFileMode,
  removeStaleTemps,
  tightenMode,
  writeFileDurably,
} from '../../util/durableFile.ts'
import type {Lake} from '../lake.ts'

import {messageOf} from '../../util/messageOf.ts'
import {isRecord} from '../../util/isRecord.ts'

const maxKeys = 100
const maxKeyLength = 256
const maxBytes = 1024 * 1024
const fileName = 'studio-keyvalue.json'

type Values = Record<string, unknown>

/** A record without a prototype, so a key named `__proto__` is stored like any other. */
function emptyValues(): Values {
  const values: Values = Object.create(null)
  return values
}

/**
 * The Studio's per-user settings (`/users/me/keyvalue`: list layouts, sort orders, Vision's
 * saved queries), kept in one JSON file in the data dir, replaced durably on write
 * (server/util/durableFile.ts). A file that does not parse is moved aside at start: the
 * settings are conveniences, and losing them must not keep the site down.
 */
export class KeyValueFile {
  private readonly file: string
  private values: Values
  /** Writes run one at a time, each on top of the one before it. */
  private writes: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string) {
    ensurePrivateDir(dataDir)
    this.file = join(dataDir, fileName)
    removeStaleTemps(dataDir, fileName)
    this.values = this.load()
  }

  private load(): Values {
    if (!existsSync(this.file)) return emptyValues()
    tightenMode(this.file, privateFileMode)
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8'))
    } catch (error) {
      moveAside(this.file, messageOf(error))
      return emptyValues()
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      moveAside(this.file, 'not a JSON object')
      return emptyValues()
    }
    return Object.assign(emptyValues(), parsed)
  }

  get(key: string): unknown {
    return Object.hasOwn(this.values, key) ? this.values[key] : null
  }

  /** Stores the entries (null deletes); resolves once they are on disk. A full disk is a 507. */
  set(entries: Array<{key: string; value: unknown}>): Promise<void> {
    const run = () => this.write(entries)
    const done = this.writes.then(run, run)
    this.writes = done.catch(() => undefined)
    return done
  }

  private async write(entries: Array<{key: string; value: unknown}>): Promise<void> {
    const next = Object.assign(emptyValues(), this.values)
    for (const {key, value} of entries) {
      if (value === null) delete next[key]
      else next[key] = value
    }
    const json = JSON.stringify(next)
    if (Buffer.byteLength(json) > maxBytes)
      throw badRequest(`Stored settings would exceed ${maxBytes} bytes`)
    try {
      await writeFileDurably(this.file, json, privateFileMode)
    } catch (error) {
      throw storageError(error)
    }
    this.values = next
  }
}

function validKey(key: unknown): key is string {
  return typeof key === 'string' && key.length > 0 && key.length <= maxKeyLength
}

/**
 * GET /users/me/keyvalue/{key1,key2}, and PUT (the Studio's `setKey`, e.g. recent searches) or
 * POST /users/me/keyvalue (`[{key, value}]`).
 */
export function registerKeyValue(app: Hono, lake: Lake, dataDir: string): void {
  const store = new KeyValueFile(dataDir)
  app.get('/:version/users/me/keyvalue/:keys', (c) => {
    requireIdentity(c, lake)
    // Hono has decoded the path segment once; decoding again would turn `%25` into a 500.
    const keys = c.req.param('keys').split(',')
    if (keys.length > maxKeys || !keys.every(validKey))
      throw badRequest(`Give 1–${maxKeys} keys of at most ${maxKeyLength} characters`)
    return c.json(
      keys.map((key) => ({key, value: store.get(key)})),
      200,
      {'cache-control': 'private, no-store'},
    )
  })
  const set = async (c: Context) => {
    requireIdentity(c, lake)
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(await readBody(c.req.raw, maxBytes)))
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw badRequest('Body is not valid JSON')
      throw new LakeError(413, 'requestEntityTooLarge', error.message)
    }
    const entries = Array.isArray(body) ? body : [body]
    if (entries.length === 0 || entries.length > maxKeys)
      throw badRequest(`Give 1–${maxKeys} entries`)
    const valid = entries.every(
      (e): e is {key: string; value: unknown} => isRecord(e) && validKey(e.key) && 'value' in e,
    )
    if (!valid) throw badRequest('Each entry must be {"key": string, "value": any}')
    await store.set(entries)
    return c.json(entries.map(({key, value}) => ({key, value})))
  }
  app.put('/:version/users/me/keyvalue', set)
  app.post('/:version/users/me/keyvalue', set)
}
