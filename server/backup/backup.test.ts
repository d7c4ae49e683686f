import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DatabaseSync} from 'node:sqlite'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {mountSmallDisk} from '../../test/support/smallDisk.ts'
import {writeFileDurablySync} from '../util/durableFile.ts'
import {writeBackup} from './backup.ts'
import {BackupError} from './errors.ts'
import {restoreBackup} from './restore.ts'
import {exportOf, ownerClient, png, withLake} from './testing/fixtures.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'backup-'))
})
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** Writers that each commit one transaction at a time: an entry and its counter, together. */
const writers = 4

describe('lake backup', () => {
  it('taken during concurrent writes, restores to a consistent prefix of them, images and settings included, sessions not', async () => {
    const server = await startTestServer({SEED: '0', BACKUP_INTERVAL_MINUTES: '0'})
    const lake = server.lake
    if (!lake) throw new Error('no lake')
    const client = ownerClient(server.url, lake.token)
    try {
      const image = await png(1)
      const asset = await client.assets.upload('image', image, {filename: 'one.png'})
      await client.create({
        _id: 'post-with-image',
        _type: 'post',
        image: {_type: 'image', asset: {_type: 'reference', _ref: asset._id}},
      })
      await client.request({
        url: '/users/me/keyvalue',
        method: 'POST',
        body: [{key: 'studio.layout', value: {columns: 3}}],
      })
      const sessionToken = lake.createSession()

      // Each writer commits entry i and counter = i + 1 in one transaction, then the next.
      const acked = Array.from({length: writers}, () => 0)
      let stop = false
      const write = async (w: number) => {
        while (!stop) {
          const i = acked[w]
          await client
            .transaction()
            .create({_id: `w${w}-${i}`, _type: 'entry', n: i})
            .createOrReplace({_id: `w${w}-counter`, _type: 'counter', n: i + 1})
            .commit({visibility: 'sync'})
          acked[w] = i + 1
        }
      }
      const running = acked.map((_, w) => write(w))
      while (acked.some((n) => n < 5)) await client.fetch('count(*)')
      const before = [...acked]
      const file = join(dir, 'during.tar.gz')
      const result = await writeBackup(server.dataDir, file)
      const after = [...acked]
      stop = true
      await Promise.all(running)
      expect(after.reduce((a, b) => a + b)).toBeGreaterThan(before.reduce((a, b) => a + b))

      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(result.manifest.counts.images).toBe(1)
      const target = join(dir, 'restored')
      await restoreBackup(file, target, {lakeToken: 'from-env'})

      await withLake(target, (restored) => {
        for (let w = 0; w < writers; w++) {
          const counter = restored.getDocument(`w${w}-counter`)
          const k = Number(counter?.n)
          // Everything acknowledged before the backup began is in it; nothing not yet written is.
          expect(k).toBeGreaterThanOrEqual(before[w])
          expect(k).toBeLessThanOrEqual(after[w] + 1)
          // A prefix: entries 0…k−1 and no later one, exactly what the counter says.
          for (let i = 0; i < k; i++) expect(restored.getDocument(`w${w}-${i}`)?.n).toBe(i)
          expect(restored.getDocument(`w${w}-${k}`)).toBeUndefined()
        }
        expect(restored.getDocument('post-with-image')).toBeDefined()
        expect(restored.getDocument(asset._id)).toBeDefined()
        expect(result.manifest.counts.documents).toBe(restored.documentCount)
      })
      const images = readdirSync(join(target, 'assets', 'images'))
      expect(images).toHaveLength(1)
      expect(readFileSync(join(target, 'assets', 'images', images[0]))).toEqual(image)
      expect(JSON.parse(readFileSync(join(target, 'studio-keyvalue.json'), 'utf8'))).toEqual({
        'studio.layout': {columns: 3},
      })
      // No session, and not even its hash left in the file's free pages; no owner token.
      const db = new DatabaseSync(join(target, 'lake.sqlite'))
      expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()?.n).toBe(0)
      db.close()
      const hashes = new DatabaseSync(join(server.dataDir, 'lake.sqlite'), {readOnly: true})
      const hash = String(hashes.prepare('SELECT token_hash FROM sessions').get()?.token_hash)
      hashes.close()
      expect(hash).toMatch(/^[0-9a-f]{64}$/)
      expect(readFileSync(join(target, 'lake.sqlite')).includes(hash)).toBe(false)
      expect(existsSync(join(target, 'owner-token'))).toBe(false)
      expect(lake.verifyToken(sessionToken)).toBeDefined()
    } finally {
      await server.stop()
    }
  })

  it('restores to a lake whose export equals the export at the moment of the backup, with the keys others rely on', async () => {
    const source = join(dir, 'seeded')
    const server = await startTestServer({DATA_DIR: source, BACKUP_INTERVAL_MINUTES: '0'})
    const file = join(dir, 'seeded.tar.gz')
    // The social web's actor keys are made at the first start; the newsletter's key is as
    // opaque to a backup as this stand-in.
    const keys = join(source, 'social-keys.json')
    writeFileDurablySync(join(source, 'newsletter-secret'), 'signing-key\n')
    try {
      await expect.poll(() => existsSync(keys)).toBe(true)
      await writeBackup(source, file)
    } finally {
      await server.stop()
    }
    const expected = await exportOf(source)
    expect(expected.split('\n').length).toBeGreaterThan(20)
    const target = join(dir, 'seeded-restored')
    await restoreBackup(file, target, {lakeToken: 'from-env'})
    expect(await exportOf(target)).toBe(expected)
    // Followers' servers hold the actor's public key, and sent mails the signed links.
    for (const name of ['social-keys.json', 'newsletter-secret']) {
      expect(readFileSync(join(target, name))).toEqual(readFileSync(join(source, name)))
      expect(statSync(join(target, name)).mode & 0o777).toBe(0o600)
    }
  })

  it('refuses when the disk could not hold it with room to spare, and writes nothing', async () => {
    const disk = mountSmallDisk(16 * 1024 * 1024)
    if (!disk) throw new Error('this test needs to mount a tmpfs (root)')
    try {
      const file = join(disk.dir, 'too-big.tar.gz')
      const refused = writeBackup(join(dir, 'seeded'), file)
      await expect(refused).rejects.toBeInstanceOf(BackupError)
      await expect(refused).rejects.toThrow(/Not enough free space for the backup/)
      expect(readdirSync(disk.dir)).toEqual([])
    } finally {
      disk.remove()
    }
  })

  it('never replaces an existing file', async () => {
    const file = join(dir, 'seeded.tar.gz')
    const size = statSync(file).size
    await expect(writeBackup(join(dir, 'seeded'), file)).rejects.toThrow(/already exists/)
    expect(statSync(file).size).toBe(size)
  })
})
