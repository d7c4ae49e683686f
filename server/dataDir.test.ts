import {
  existsSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import sharp from 'sharp'
import {afterEach, describe, expect, it} from 'vitest'
import {startTestServer} from '../test/support/server.ts'

// DATA_DIR as the owner finds it after the process starts: owner-only modes whatever the umask
// (the lake's files and the app's TLS key, server/tls.ts), looser ones from older versions
// tightened, and a corrupt side file moved aside, never a failed start. The whole process writes
// this folder, so the whole app runs here.

const dirs: string[] = []
const servers: Array<{stop(): Promise<void>}> = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop()
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-data-'))
  dirs.push(dir)
  return dir
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

async function start(dataDir: string) {
  const server = await startTestServer({SEED: '0', DATA_DIR: dataDir})
  servers.push(server)
  const token = server.lake!.token
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/v2025-02-19${path}`, {
      ...init,
      headers: {authorization: `Bearer ${token}`, ...init.headers},
    })
  return {server, api}
}

describe('DATA_DIR on disk', () => {
  it('is 0700 with 0600 files, created under a permissive umask', async () => {
    const dataDir = join(freshDir(), 'data')
    const umask = process.umask(0o000)
    let started
    try {
      started = await start(dataDir)
    } finally {
      process.umask(umask)
    }
    const {api} = started
    const png = await sharp({create: {width: 8, height: 8, channels: 3, background: '#123'}})
      .png()
      .toBuffer()
    const upload = await api('/assets/images/production', {
      method: 'POST',
      headers: {'content-type': 'image/png'},
      body: new Uint8Array(png),
    })
    expect(upload.status).toBe(200)
    const setting = await api('/users/me/keyvalue', {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify([{key: 'k', value: 1}]),
    })
    expect(setting.status).toBe(200)

    const images = join(dataDir, 'assets', 'images')
    const [image] = readdirSync(images)
    expect({
      dataDir: mode(dataDir),
      assets: mode(join(dataDir, 'assets')),
      images: mode(images),
      image: mode(join(images, image)),
    }).toEqual({dataDir: '700', assets: '700', images: '700', image: '600'})
    // The variant disk cache (a folder, 0700 like assets/) appears once an image is transformed.
    const folders = ['assets', 'cache']
    for (const folder of folders.slice(1).filter((name) => existsSync(join(dataDir, name))))
      expect(`${folder} ${mode(join(dataDir, folder))}`).toBe(`${folder} 700`)
    const files = readdirSync(dataDir).filter((name) => !folders.includes(name))
    expect(files).toEqual(
      expect.arrayContaining([
        'lake.sqlite',
        'lake.sqlite-wal',
        'lake.sqlite-shm',
        'owner-token',
        'localhost-key.pem',
        'studio-keyvalue.json',
      ]),
    )
    for (const name of files) expect(`${name} ${mode(join(dataDir, name))}`).toBe(`${name} 600`)
  })

  it('tightens a data dir and files that an older version left readable', async () => {
    const dataDir = freshDir()
    await (await start(dataDir)).server.stop()
    servers.length = 0
    const images = join(dataDir, 'assets', 'images')
    mkdirSync(images, {recursive: true})
    writeFileSync(join(images, `${'a'.repeat(40)}-1x1.png`), 'old')
    for (const dir of [dataDir, join(dataDir, 'assets'), images]) chmodSync(dir, 0o755)
    for (const name of ['lake.sqlite', 'owner-token', 'localhost-key.pem'])
      chmodSync(join(dataDir, name), 0o644)
    chmodSync(join(images, `${'a'.repeat(40)}-1x1.png`), 0o644)

    await start(dataDir)
    expect([dataDir, join(dataDir, 'assets'), images].map(mode)).toEqual(['700', '700', '700'])
    for (const name of ['lake.sqlite', 'owner-token', 'localhost-key.pem'])
      expect(`${name} ${mode(join(dataDir, name))}`).toBe(`${name} 600`)
    expect(mode(join(images, `${'a'.repeat(40)}-1x1.png`))).toBe('600')
  })

  it('starts with a corrupt Studio settings file moved aside, and the settings API works', async () => {
    const dataDir = freshDir()
    const file = join(dataDir, 'studio-keyvalue.json')
    writeFileSync(file, '{"half a settings file')
    const {api} = await start(dataDir)

    const aside = readdirSync(dataDir).filter((name) =>
      name.startsWith('studio-keyvalue.json.corrupt-'),
    )
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dataDir, aside[0]), 'utf8')).toBe('{"half a settings file')
    const empty = await api('/users/me/keyvalue/layout')
    expect(await empty.json()).toEqual([{key: 'layout', value: null}])
    const set = await api('/users/me/keyvalue', {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify([{key: 'layout', value: {list: 'compact'}}]),
    })
    expect(set.status).toBe(200)
    const read = await api('/users/me/keyvalue/layout,other%25key')
    expect(await read.json()).toEqual([
      {key: 'layout', value: {list: 'compact'}},
      {key: 'other%key', value: null},
    ])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({layout: {list: 'compact'}})
  })

  it('starts with a settings file that is JSON but not an object, or a short owner token', async () => {
    const dataDir = freshDir()
    writeFileSync(join(dataDir, 'studio-keyvalue.json'), '[1, 2]')
    writeFileSync(join(dataDir, 'owner-token'), '\n')
    const {server} = await start(dataDir)
    expect(server.lake!.token.length).toBeGreaterThanOrEqual(32)
    expect(readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()).toBe(server.lake!.token)
    const aside = readdirSync(dataDir).filter((name) => name.includes('.corrupt-'))
    expect(aside.map((name) => name.replace(/\.corrupt-.*/, '')).sort()).toEqual([
      'owner-token',
      'studio-keyvalue.json',
    ])
  })
})
