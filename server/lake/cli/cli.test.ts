import {execFile} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startLakeUnderTest} from '../../../test/support/lakeUnderTest.ts'
import {defaultDataset, localProjectId} from '../../../shared/constants.ts'
import {Lake} from '../lake.ts'
import {seedIfEmpty} from '../seed.ts'

// `npm run lake:import` / `lake:export` as separate processes on a data dir, as a user runs them.
const cli = (name: string) => fileURLToPath(new URL(`./${name}.ts`, import.meta.url))

function run(
  name: 'import' | 'export',
  args: string[],
  dataDir: string,
): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli(name), ...args],
      {env: {...process.env, DATA_DIR: dataDir}, timeout: 60_000},
      (error, stdout, stderr) => {
        resolve({code: error ? Number(error.code ?? 1) : 0, stdout, stderr})
      },
    )
  })
}

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lake-cli-'))
})
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('lake CLI', () => {
  it('exports a seeded lake and imports it elsewhere byte for byte; refuses existing ids without --replace', async () => {
    const source = join(dir, 'source')
    // A lake seeded with content/seed.ndjson, as a first start leaves it.
    const seeded = new Lake({dataDir: source, projectId: localProjectId, dataset: defaultDataset})
    expect(await seedIfEmpty(seeded, {dataDir: source})).toBe(true)
    seeded.close()
    const first = join(dir, 'first.ndjson')
    const exported = await run('export', [first], source)
    expect(exported).toMatchObject({code: 0, stderr: ''})
    const count = readFileSync(first, 'utf8').trimEnd().split('\n').length
    expect(count).toBeGreaterThanOrEqual(20)
    expect(exported.stdout).toContain(`wrote ${count} documents`)

    const target = join(dir, 'target')
    const imported = await run('import', [first], target)
    expect(imported).toMatchObject({code: 0})
    expect(imported.stdout).toContain(`${count}/${count} documents`)
    const second = join(dir, 'second.ndjson')
    expect((await run('export', [second], target)).code).toBe(0)
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(first, 'utf8'))

    const again = await run('import', [first], target)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exist.*--replace/)
    expect((await run('import', [first, '--replace'], target)).code).toBe(0)
    const posts = await run('export', ['-', '--types', 'post'], target)
    expect(
      posts.stdout
        .trimEnd()
        .split('\n')
        .every((line) => JSON.parse(line)._type === 'post'),
    ).toBe(true)
  })

  it('refuses to import into a lake a running server holds, and explains usage errors', async () => {
    const live = join(dir, 'live')
    const server = await startLakeUnderTest({dataDir: live})
    try {
      const busy = await run('import', [join(dir, 'first.ndjson')], live)
      expect(busy.code).toBe(1)
      expect(busy.stderr).toMatch(/in use.*server/)
      // Reading is safe while it runs.
      expect((await run('export', ['-'], live)).code).toBe(0)
      // And the server is unharmed.
      expect(
        (await fetch(`${server.url}/v2023-07-29/data/query/production?query=count(*)`)).status,
      ).toBe(200)
    } finally {
      await server.stop()
    }
    expect((await run('import', [], live)).stderr).toContain('Usage')
    expect((await run('import', ['x.ndjson', '--force'], live)).stderr).toContain('Usage')
    expect((await run('import', [join(dir, 'missing.ndjson')], live)).stderr).toContain('ENOENT')
    expect((await run('export', ['out.ndjson'], join(dir, 'nowhere'))).stderr).toContain('No lake')
  })
})
