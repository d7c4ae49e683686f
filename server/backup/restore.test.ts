import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {
  existsSync,
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
import {gunzipSync, gzipSync} from 'node:zlib'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {schemaVersion} from '../lake/index.ts'
import {writeBackup} from './backup.ts'
import {parseManifest} from './manifest.ts'
import {runCli, treeOf, type CliRun} from './testing/cli.ts'
import {exportOf} from './testing/fixtures.ts'
import {writeSchemaTwoLake} from './testing/schemaTwo.ts'
import {tarStream, type TarEntry} from './tarWriter.ts'
import {parseNdjson, seedFile} from '../lake/index.ts'

/** What the seeded source lake holds: the sample posts and the image assets they show. */
const seed = parseNdjson(readFileSync(seedFile, 'utf8'))
const seedPosts = seed.filter((doc) => doc._type === 'post').length
const seedImages = seed.filter((doc) => doc._type === 'sanity.imageAsset').length

/** Flips one byte inside the data of the tar entry named `name`. */
function flipInside(tar: Buffer, name: string): void {
  for (let offset = 0; offset + 512 <= tar.length;) {
    const entryName = tar
      .subarray(offset, offset + 100)
      .toString('ascii')
      .replace(/\0.*$/s, '')
    const size = parseInt(tar.subarray(offset + 124, offset + 136).toString('ascii'), 8) || 0
    if (entryName === name) {
      tar[offset + 512 + Math.floor(size / 2)] ^= 0x01
      return
    }
    offset += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`no ${name} in the archive`)
}

let dir: string
let source: string
let server: Awaited<ReturnType<typeof startTestServer>>
let archive: string
/** A data dir that already holds a lake, which bad restores must leave exactly as it is. */
let occupied: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'restore-'))
  source = join(dir, 'source')
  server = await startTestServer({DATA_DIR: source, BACKUP_INTERVAL_MINUTES: '0'})
  // The social web's actor keys are made at the first start, and every backup carries them.
  await vi.waitFor(() => {
    if (!existsSync(join(source, 'social-keys.json'))) throw new Error('no actor keys yet')
  })
  archive = join(dir, 'good.tar.gz')
  occupied = join(dir, 'occupied')
  mkdirSync(occupied)
  writeSchemaTwoLake(occupied, {_id: 'old-doc', _type: 'post'})
  writeFileSync(join(occupied, 'owner-token'), 'sk-old\n', {mode: 0o600})
})
afterAll(async () => {
  await server.stop()
  rmSync(dir, {recursive: true, force: true})
})

/** Restoring `file` into `target` fails with `message`; `target` and its parent stay as they were. */
async function expectRefused(file: string, target: string, message: RegExp, args: string[] = []) {
  const before = treeOf(target)
  const siblings = readdirSync(dir).sort()
  const run: CliRun = await runCli('restore', [file, ...args], {DATA_DIR: target})
  expect(run.code).toBe(1)
  expect(run.stderr).toMatch(message)
  expect(run.stderr).toContain('was left as it was')
  expect(treeOf(target)).toEqual(before)
  expect(readdirSync(dir).sort()).toEqual(siblings)
}

/** Repacks an extracted backup (`tar -xzf` output) after `change` edited it. */
async function repack(
  extracted: string,
  out: string,
  manifestChange: (m: Record<string, unknown>) => void,
) {
  const manifest = JSON.parse(readFileSync(join(extracted, 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >
  manifestChange(manifest)
  const json = Buffer.from(JSON.stringify(manifest))
  const files = (manifest.files as Array<{path: string}>).map((f) => f.path)
  const entries: TarEntry[] = [
    {
      path: 'manifest.json',
      type: 'file',
      mode: 0o600,
      size: json.length,
      mtime: new Date(),
      body: async function* () {
        yield json
      },
    },
    ...['assets/', 'assets/images/'].map((path): TarEntry => ({
      path,
      type: 'directory',
      mode: 0o700,
      size: 0,
      mtime: new Date(),
    })),
    ...files.map((path): TarEntry => {
      const bytes = readFileSync(join(extracted, path))
      return {
        path,
        type: 'file',
        mode: 0o600,
        size: bytes.length,
        mtime: new Date(),
        body: async function* () {
          yield bytes
        },
      }
    }),
  ]
  const chunks: Buffer[] = []
  for await (const chunk of tarStream(entries)) chunks.push(chunk)
  writeFileSync(out, gzipSync(Buffer.concat(chunks)))
}

describe('lake:backup and lake:restore', () => {
  it('lake:backup writes a 0600 archive that tar -xzf opens, while the server runs', async () => {
    const run = await runCli('backup', [archive], {DATA_DIR: source})
    expect(run).toMatchObject({code: 0, stderr: ''})
    expect(run.stdout).toMatch(
      new RegExp(
        `wrote .*good\\.tar\\.gz: .* [KM]B in .* s \\(${seed.length} documents, ${seedImages} images, schema \\d+\\)`,
      ),
    )
    expect(statSync(archive).mode & 0o777).toBe(0o600)
    const extracted = join(dir, 'extracted')
    mkdirSync(extracted)
    execFileSync('tar', ['-xzf', archive, '-C', extracted])
    expect(readdirSync(extracted).sort()).toEqual([
      'assets',
      'lake.sqlite',
      'manifest.json',
      'social-keys.json',
      'stats.sqlite',
    ])
    expect(readdirSync(join(extracted, 'assets', 'images'))).toHaveLength(seedImages)
    const manifest = parseManifest(readFileSync(join(extracted, 'manifest.json'), 'utf8'))
    expect(manifest.schemaVersion).toBe(schemaVersion)
    expect(manifest.counts).toMatchObject({
      documents: seed.length,
      byType: {post: seedPosts, 'sanity.imageAsset': seedImages},
    })
    const sha = createHash('sha256')
      .update(readFileSync(join(extracted, 'lake.sqlite')))
      .digest('hex')
    expect(manifest.files[0]).toEqual({
      path: 'lake.sqlite',
      bytes: statSync(join(extracted, 'lake.sqlite')).size,
      sha256: sha,
    })
    expect(manifest.files.slice(1).map((f) => f.path)).toEqual([
      'social-keys.json',
      ...readdirSync(join(extracted, 'assets', 'images'))
        .sort()
        .map((name) => `assets/images/${name}`),
      'stats.sqlite',
    ])
    expect(
      (await fetch(`${server.url}/v2023-07-29/data/query/production?query=count(*)`)).status,
    ).toBe(200)
  })

  it('refuses while a running server holds DATA_DIR, even with --force', async () => {
    const run = await runCli('restore', [archive, '--force'], {DATA_DIR: source})
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/in use by a running server \(pid \d+/)
    expect(readdirSync(dir).filter((name) => name.startsWith('source'))).toEqual(['source'])
  })

  it('refuses a non-empty DATA_DIR without --force, and corrupt, truncated or tampered archives with it; nothing is touched', async () => {
    await expectRefused(
      archive,
      occupied,
      /is not empty \(it holds lake\.sqlite, owner-token\).*--force/,
    )
    const bytes = readFileSync(archive)
    const truncated = join(dir, 'truncated.tar.gz')
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
    await expectRefused(truncated, occupied, /ends early \(it is truncated\)/, ['--force'])
    const corrupt = join(dir, 'corrupt.tar.gz')
    const flipped = Buffer.from(bytes)
    for (let i = 0; i < 16; i++) flipped[Math.floor(bytes.length / 2) + i] ^= 0xff
    writeFileSync(corrupt, flipped)
    await expectRefused(corrupt, occupied, /archive is corrupt/, ['--force'])
    // Valid gzip, valid tar, one byte of the database changed: only the checksum can tell.
    const tar = gunzipSync(bytes)
    flipInside(tar, 'lake.sqlite')
    const tampered = join(dir, 'tampered.tar.gz')
    writeFileSync(tampered, gzipSync(tar))
    await expectRefused(tampered, occupied, /lake\.sqlite does not match its checksum/, ['--force'])
    const notOurs = join(dir, 'not-ours.tar.gz')
    writeFileSync(notOurs, gzipSync(Buffer.alloc(2048)))
    await expectRefused(notOurs, occupied, /archive is empty|not a Scriptorium backup/, ['--force'])
  })

  it('refuses a backup from a newer schema with a clear message', async () => {
    const newer = join(dir, 'newer.tar.gz')
    await repack(join(dir, 'extracted'), newer, (m) => {
      m.schemaVersion = schemaVersion + 1
    })
    await expectRefused(
      newer,
      occupied,
      new RegExp(
        `schema version ${schemaVersion + 1}, newer than this Scriptorium's ${schemaVersion}.*Upgrade`,
      ),
      ['--force'],
    )
  })

  it('migrates a backup from an older schema', async () => {
    const old = join(dir, 'old-lake')
    writeSchemaTwoLake(old, {_id: 'from-schema-two', _type: 'post'})
    const file = join(dir, 'schema-two.tar.gz')
    const written = await writeBackup(old, file)
    expect(written.manifest.schemaVersion).toBe(2)
    const target = join(dir, 'migrated')
    const run = await runCli('restore', [file], {DATA_DIR: target})
    expect(run).toMatchObject({code: 0, stderr: ''})
    expect(run.stdout).toContain('migrated the database from schema 2 to the current one')
    expect(await exportOf(target)).toContain('"_id":"from-schema-two"')
  })

  it('with --force keeps the old DATA_DIR aside, restores the export of the backup, and prints where the new owner token is', async () => {
    const keep = treeOf(occupied)
    const run = await runCli('restore', [archive, '--force'], {DATA_DIR: occupied})
    expect(run).toMatchObject({code: 0, stderr: ''})
    const aside = readdirSync(dir).filter((name) => name.startsWith('occupied.before-restore-'))
    expect(aside).toHaveLength(1)
    expect(run.stdout).toContain(`previous data dir is kept at ${join(dir, aside[0])}`)
    expect(treeOf(join(dir, aside[0]))).toEqual(keep)
    expect(readdirSync(dir).filter((name) => name.includes('.restore-'))).toEqual([])
    expect(await exportOf(occupied)).toBe(await exportOf(source))

    const tokenFile = join(occupied, 'owner-token')
    expect(run.stdout).toContain(`new owner token in ${tokenFile}`)
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
    expect(statSync(occupied).mode & 0o777).toBe(0o700)
    const token = readFileSync(tokenFile, 'utf8').trim()
    expect(token).not.toBe('sk-old')
    const restored = await startTestServer({DATA_DIR: occupied, BACKUP_INTERVAL_MINUTES: '0'})
    try {
      const me = await fetch(`${restored.url}/v2025-02-19/users/me`, {
        headers: {authorization: `Bearer ${token}`},
      })
      expect(me.status).toBe(200)
      expect(await me.json()).toMatchObject({id: 'p-owner'})
    } finally {
      await restored.stop()
    }
  })

  it('with LAKE_TOKEN set, generates no token file and says to log in with LAKE_TOKEN', async () => {
    const target = join(dir, 'with-env-token')
    const run = await runCli('restore', [archive], {DATA_DIR: target, LAKE_TOKEN: 'e'.repeat(40)})
    expect(run).toMatchObject({code: 0, stderr: ''})
    expect(run.stdout).toContain('log in to the Studio with LAKE_TOKEN')
    expect(readdirSync(target).sort()).toEqual([
      'assets',
      'lake.sqlite',
      'social-keys.json',
      'stats.sqlite',
    ])
  })
})
