import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {localClient} from '../../test/support/localClient.ts'
import {startTestServer} from '../../test/support/server.ts'
import {writeBackup} from './backup.ts'
import {restoreBackup} from './restore.ts'

// Release documents and versions are in a backup like any document, with their history: a
// restored lake has them as they were, a scheduled release still scheduled.
const dir = mkdtempSync(join(tmpdir(), 'releases-backup-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

it('backup → restore keeps releases, versions and their history', async () => {
  const source = await startTestServer({DATA_DIR: join(dir, 'source'), SEED: '0'})
  const ids = ['_.releases.rKeep', 'versions.rKeep.keep-a']
  const later = new Date(Date.now() + 86_400_000).toISOString()
  let kept: unknown[]
  let history: string
  try {
    const owner = localClient(source.url, {
      apiVersion: '2025-02-19',
      token: source.lake!.token,
    })
    await owner.create({_id: 'keep-a', _type: 'post', title: 'Published'})
    await owner.releases.create({releaseId: 'rKeep', metadata: {title: 'Keep'}})
    await owner.createVersion({baseId: 'keep-a', publishedId: 'keep-a', releaseId: 'rKeep'})
    await owner.releases.schedule({releaseId: 'rKeep', publishAt: later})
    kept = ids.map((id) => source.lake!.getDocument(id))
    history = await historyOf(source.url, source.lake!.token)
    await writeBackup(source.dataDir, join(dir, 'releases.tar.gz'))
  } finally {
    await source.stop()
  }
  await restoreBackup(join(dir, 'releases.tar.gz'), join(dir, 'restored'))
  const restored = await startTestServer({DATA_DIR: join(dir, 'restored'), SEED: '0'})
  try {
    expect(ids.map((id) => restored.lake!.getDocument(id))).toEqual(kept)
    expect(restored.lake!.getDocument('_.releases.rKeep')).toMatchObject({
      state: 'scheduled',
      publishAt: later,
    })
    expect(await historyOf(restored.url, restored.lake!.token)).toBe(history)
  } finally {
    await restored.stop()
  }
})

/** The release document's transactions, as the History API lists them. */
async function historyOf(url: string, token: string): Promise<string> {
  const res = await fetch(
    `${url}/v2025-02-19/data/history/production/transactions/_.releases.rKeep`,
    {headers: {authorization: `Bearer ${token}`}},
  )
  expect(res.status).toBe(200)
  const text = await res.text()
  expect(text).toContain('rKeep')
  return text
}
