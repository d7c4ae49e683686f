import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../../test/support/server.ts'
import {mountSmallDisk, type SmallDisk} from '../../../test/support/smallDisk.ts'
import {storeOf} from '../lake.ts'

// A full disk, for real: the server runs on a small tmpfs the test mounts (as root), which is
// filled until ENOSPC. Every write then answers 507 with a Sanity-shaped body naming no path,
// stores nothing, and the same request succeeds once the filler is deleted. Where mounting is
// not allowed, the lake's writes are refused the SQLite way instead (max_page_count makes any
// growth SQLITE_FULL) and the file writes, which need a real full filesystem, are not run.

type Server = Awaited<ReturnType<typeof startTestServer>>

/** Room for the lake's start (SQLite files, TLS key, token) and a little more; 8 MiB. */
const diskBytes = 8 * 1024 * 1024

const disk: SmallDisk | undefined = mountSmallDisk(diskBytes)
let server: Server
let token: string

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/v2025-02-19${path}`, {
    ...init,
    headers: {authorization: `Bearer ${token}`, ...init.headers},
  })

function fillDisk(): void {
  if (disk) {
    expect(disk.fill()).toBeGreaterThan(0)
    return
  }
  const db = storeOf(server.lake!).db
  const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count)
  db.exec(`PRAGMA max_page_count = ${pages}`)
}

function freeDisk(): void {
  if (disk) disk.free()
  else storeOf(server.lake!).db.exec('PRAGMA max_page_count = 1073741823')
}

/** The 507 as a client sees it: Sanity's error shape, and no filesystem path anywhere. */
async function expectInsufficientStorage(res: Response): Promise<void> {
  expect(res.status).toBe(507)
  const text = await res.text()
  expect(JSON.parse(text)).toMatchObject({error: {type: 'insufficientStorage'}})
  for (const leak of [server.dataDir, '/tmp', 'ENOSPC', 'SQLITE'])
    expect(`${res.statusText} ${text}`).not.toContain(leak)
}

beforeAll(async () => {
  server = await startTestServer({SEED: '0', ...(disk && {DATA_DIR: join(disk.dir, 'data')})})
  token = server.lake!.token
})
afterAll(async () => {
  freeDisk()
  await server?.stop()
  disk?.remove()
})

describe('a full disk', () => {
  it('a lake commit is a 507, stores nothing, and succeeds once space is freed', async () => {
    const doc = {_id: 'big-note', _type: 'note', text: 'x'.repeat(200_000)}
    const mutate = () =>
      api('/data/mutate/production?returnIds=true', {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({mutations: [{create: doc}]}),
      })
    const revision = server.lake!.revision
    fillDisk()
    try {
      await expectInsufficientStorage(await mutate())
      expect(server.lake!.revision).toBe(revision)
      expect(server.lake!.getDocument(doc._id)).toBeUndefined()
      const found = await api(`/data/doc/production/${doc._id}`)
      expect(((await found.json()) as {documents: unknown[]}).documents).toEqual([])
    } finally {
      freeDisk()
    }
    expect((await mutate()).status).toBe(200)
    expect(server.lake!.getDocument(doc._id)).toMatchObject({text: doc.text})
  })

  it('a contact message is a 507 the visitor can read, stores nothing, then is stored', async () => {
    const send = () =>
      fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: {accept: 'application/json'},
        body: new URLSearchParams({
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: `A long letter. ${'x'.repeat(9_000)}`,
        }),
      })
    const inbox = () =>
      storeOf(server.lake!)
        .snapshot()
        .filter((d) => d._type === 'contactMessage')
    fillDisk()
    try {
      const refused = await send()
      expect(refused.status).toBe(507)
      const body = (await refused.json()) as {success: boolean; message: string}
      expect(body).toMatchObject({success: false, message: expect.stringMatching(/storage/)})
      expect(body.message).not.toContain(server.dataDir)
      expect(inbox()).toEqual([])
    } finally {
      freeDisk()
    }
    expect((await send()).status).toBe(200)
    expect(inbox()).toHaveLength(1)
  })

  describe.runIf(disk !== undefined)('files', () => {
    it('an image upload is a 507, leaves no file and no asset, then uploads', async () => {
      const png = await sharp({
        create: {
          width: 300,
          height: 300,
          channels: 3,
          background: '#808080',
          noise: {type: 'gaussian', mean: 128, sigma: 60},
        },
      })
        .png()
        .toBuffer()
      const upload = () =>
        api('/assets/images/production?filename=noise.png', {
          method: 'POST',
          headers: {'content-type': 'image/png'},
          body: new Uint8Array(png),
        })
      const imagesDir = join(server.dataDir, 'assets', 'images')
      const revision = server.lake!.revision
      fillDisk()
      try {
        await expectInsufficientStorage(await upload())
        expect(readdirSync(imagesDir)).toEqual([])
        expect(server.lake!.revision).toBe(revision)
      } finally {
        freeDisk()
      }
      const stored = await upload()
      expect(stored.status).toBe(200)
      const {document} = (await stored.json()) as {document: {_id: string; path: string}}
      expect(server.lake!.getDocument(document._id)).toBeDefined()
      expect(readdirSync(imagesDir)).toHaveLength(1)
      const served = await fetch(`${server.url}/${document.path}`)
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)
    })

    it('a Studio setting is a 507, keeps the stored value, then is written', async () => {
      const file = join(server.dataDir, 'studio-keyvalue.json')
      const set = (value: string) =>
        api('/users/me/keyvalue', {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify([{key: 'layout', value}]),
        })
      const get = async () =>
        ((await (await api('/users/me/keyvalue/layout')).json()) as Array<{value: unknown}>)[0]
          .value
      expect((await set('before')).status).toBe(200)
      const onDisk = readFileSync(file, 'utf8')
      fillDisk()
      try {
        await expectInsufficientStorage(await set('x'.repeat(300_000)))
        expect(await get()).toBe('before')
        expect(readFileSync(file, 'utf8')).toBe(onDisk)
        expect(readdirSync(server.dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
      } finally {
        freeDisk()
      }
      expect((await set('after')).status).toBe(200)
      expect(await get()).toBe('after')
    })
  })
})
