import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Hono} from 'hono'
import {BodyTooLargeError, readBody} from '../../http/body.ts'
import {badRequest, LakeError} from '../errors.ts'
import {requireIdentity} from '../api/http.ts'
import type {Lake} from '../lake.ts'

const maxKeys = 100
const maxKeyLength = 256
const maxBytes = 1024 * 1024

/**
 * The Studio's per-user settings (`/users/me/keyvalue`: list layouts, sort orders, Vision's
 * saved queries), kept in one JSON file in the data dir and replaced atomically on write.
 */
export class KeyValueFile {
  private readonly file: string
  private values: Record<string, unknown>

  constructor(dataDir: string) {
    this.file = join(dataDir, 'studio-keyvalue.json')
    this.values = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, unknown>)
      : {}
  }

  get(key: string): unknown {
    return Object.hasOwn(this.values, key) ? this.values[key] : null
  }

  set(entries: Array<{key: string; value: unknown}>): void {
    const next = {...this.values}
    for (const {key, value} of entries) {
      if (value === null) delete next[key]
      else next[key] = value
    }
    const json = JSON.stringify(next)
    if (json.length > maxBytes) throw badRequest(`Stored settings would exceed ${maxBytes} bytes`)
    writeFileSync(`${this.file}.tmp`, json, {mode: 0o600})
    renameSync(`${this.file}.tmp`, this.file)
    this.values = next
  }
}

function validKey(key: unknown): key is string {
  return typeof key === 'string' && key.length > 0 && key.length <= maxKeyLength
}

/** GET /users/me/keyvalue/{key1,key2} and POST /users/me/keyvalue (`[{key, value}]`). */
export function registerKeyValue(app: Hono, lake: Lake, dataDir: string): void {
  const store = new KeyValueFile(dataDir)
  app.get('/:version/users/me/keyvalue/:keys', (c) => {
    requireIdentity(c, lake)
    const keys = c.req
      .param('keys')
      .split(',')
      .map((key) => decodeURIComponent(key))
    if (keys.length > maxKeys || !keys.every(validKey))
      throw badRequest(`Give 1–${maxKeys} keys of at most ${maxKeyLength} characters`)
    return c.json(
      keys.map((key) => ({key, value: store.get(key)})),
      200,
      {'cache-control': 'private, no-store'},
    )
  })
  app.post('/:version/users/me/keyvalue', async (c) => {
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
      (e): e is {key: string; value: unknown} =>
        typeof e === 'object' && e !== null && validKey((e as {key?: unknown}).key) && 'value' in e,
    )
    if (!valid) throw badRequest('Each entry must be {"key": string, "value": any}')
    store.set(entries)
    return c.json(entries.map(({key, value}) => ({key, value})))
  })
}
