import {afterEach, describe, expect, it} from 'vitest'
import {importDocuments, parseNdjson, type Doc} from '../server/lake/index.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {siteSettingsQuery} from '../shared/siteQueries.ts'
import {footerModals} from '../web/content/site.ts'
import {buildSeed} from './build-seed.ts'
import {earlierPrivacyTexts} from './privacyUpgrade.ts'
import {upgradeSiteCopy} from './upgrade.ts'

/**
 * A data dir made by the code before the reader statistics: the seed as it was, its settings
 * holding the privacy text that promised "no analytics" (issue #37's rule: nothing the owner
 * wrote is overwritten, so only a text she never touched is replaced).
 */
const [earlier, firstStatistics] = earlierPrivacyTexts
const today = [...footerModals.privacy.paragraphs]

async function lakeMadeBefore(privacy: readonly string[]): Promise<LakeUnderTest> {
  const t = await startLakeUnderTest()
  const docs = parseNdjson(await buildSeed()).map((doc): Doc =>
    doc._id === 'siteSettings'
      ? {
          ...doc,
          footerModals: {
            ...Object(doc.footerModals),
            privacy: {...footerModals.privacy, _type: 'footerModal', paragraphs: [...privacy]},
          },
        }
      : doc,
  )
  importDocuments(t.lake, docs)
  return t
}

/** What the start log says, as the server would print it. */
function recorder() {
  const lines: string[] = []
  return {
    lines,
    log: {log: (line: string) => lines.push(line), warn: (line: string) => lines.push(line)},
  }
}

describe('upgrading the privacy text of a data dir made before the reader statistics', () => {
  let t: LakeUnderTest | undefined
  afterEach(async () => {
    await t?.stop()
    t = undefined
  })

  it('replaces a text no one edited with today’s, published and draft, in one transaction, once', async () => {
    t = await lakeMadeBefore(earlier)
    const published = await t.owner.getDocument('siteSettings')
    await t.owner.create({
      ...published,
      _id: 'drafts.siteSettings',
      _type: 'siteSettings',
      siteName: 'A draft name',
    })
    const revision = t.lake.revision
    const {lines, log} = recorder()
    expect(await upgradeSiteCopy(t.lake, log)).toBe(2)
    expect(t.lake.revision).toBe(revision + 1)
    const settings = await t.anon.fetch(siteSettingsQuery)
    expect(settings?.footerModals?.privacy?.paragraphs).toEqual(today)
    expect(settings?.footerModals?.privacy?.title).toBe('Privacy')
    const draft = await t.owner.getDocument('drafts.siteSettings')
    expect(draft?.footerModals.privacy.paragraphs).toEqual(today)
    expect(draft?.siteName).toBe('A draft name')
    expect(lines.join('\n')).not.toContain('no analytics')

    expect(await upgradeSiteCopy(t.lake, log)).toBe(0)
    expect(t.lake.revision).toBe(revision + 1)
  })

  it('replaces the reader statistics’ first wording too (a data dir made at 57c9c86)', async () => {
    t = await lakeMadeBefore(firstStatistics)
    const {log} = recorder()
    expect(await upgradeSiteCopy(t.lake, log)).toBe(1)
    const settings = await t.anon.fetch(siteSettingsQuery)
    expect(settings?.footerModals?.privacy?.paragraphs).toEqual(today)
    expect(await upgradeSiteCopy(t.lake, log)).toBe(0)
  })

  it('leaves a text the owner edited, and tells her at start when it still says "no analytics"', async () => {
    const hers = [...earlier, 'I answer every letter myself.']
    t = await lakeMadeBefore(hers)
    const revision = t.lake.revision
    const {lines, log} = recorder()
    expect(await upgradeSiteCopy(t.lake, log)).toBe(0)
    expect(t.lake.revision).toBe(revision)
    const settings = await t.anon.fetch(siteSettingsQuery)
    expect(settings?.footerModals?.privacy?.paragraphs).toEqual(hers)
    expect(lines).toEqual([expect.stringMatching(/Privacy: This text says "no analytics"/)])
  })

  it('says nothing of a text the owner rewrote without the old promise', async () => {
    const hers = ['I keep nothing about you but what you send me.']
    t = await lakeMadeBefore(hers)
    const {lines, log} = recorder()
    expect(await upgradeSiteCopy(t.lake, log)).toBe(0)
    expect((await t.anon.fetch(siteSettingsQuery))?.footerModals?.privacy?.paragraphs).toEqual(hers)
    expect(lines).toEqual([])
  })
})
