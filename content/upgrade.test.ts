import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {importDocuments, parseNdjson, type Doc} from '../server/lake/index.ts'
import {startLakeUnderTest, type LakeUnderTest} from '../test/support/lakeUnderTest.ts'
import {postPageQuery, siteSettingsQuery} from '../shared/siteQueries.ts'
import {buildSeed} from './build-seed.ts'
import {categoriesCopy, siteCopyDocuments, testimonialsCopy} from './siteCopy.ts'
import {upgradeSiteCopy} from './upgrade.ts'

/**
 * The upgrade of a data dir made by the code before the site's copy became documents: the seed as
 * it was (posts naming their category by title, no copy documents), a draft and a release's
 * version of a post written the same way, a post of a category today's list lacks, and one
 * document the owner already made.
 */
const copyIds = new Set(siteCopyDocuments.map((doc) => doc._id))
const titleOf = new Map(categoriesCopy.map((doc) => [doc._id, String(doc.title)]))

function asBefore(doc: Doc): Doc {
  const category: unknown = doc.category
  if (doc._type !== 'post' || typeof category !== 'object' || category === null) return doc
  const ref = '_ref' in category ? String(category._ref) : ''
  return {...doc, category: titleOf.get(ref)}
}

const mine = {_id: 'homePage', _type: 'homePage', intro: 'My own words.'}

describe('upgrading a data dir made before the copy was content', () => {
  let t: LakeUnderTest
  let posts: Doc[]

  beforeAll(async () => {
    t = await startLakeUnderTest()
    const before = parseNdjson(await buildSeed())
      .filter((doc) => !copyIds.has(doc._id))
      .map(asBefore)
    posts = before.filter((doc) => doc._type === 'post')
    importDocuments(t.lake, before)
    const [first, second] = posts
    await t.owner.create(mine)
    await t.owner.create({...first, _id: `drafts.${first._id}`, category: 'Kashmir'})
    await t.owner.create({_id: 'post-travel', _type: 'post', title: 'Away', category: 'Travel'})
    await t.owner.releases.create({releaseId: 'rSpring', metadata: {title: 'Spring'}})
    await t.owner.createVersion({baseId: second._id, publishedId: second._id, releaseId: 'rSpring'})
  })

  afterAll(() => t?.stop())

  it('creates the singletons, categories and testimonials in one transaction, replacing nothing', async () => {
    const revision = t.lake.revision
    expect(await upgradeSiteCopy(t.lake)).toBeGreaterThan(0)
    expect(t.lake.revision).toBe(revision + 1)

    expect(await t.owner.getDocument('homePage')).toMatchObject(mine)
    const settings = await t.anon.fetch(siteSettingsQuery)
    expect(settings).toMatchObject({ownerName: 'Zoya Mir', siteName: 'Zoya Mir — Writer & Editor'})
    expect(settings?.footerModals?.privacy?.paragraphs?.length).toBeGreaterThan(0)
    const servicesPage = await t.owner.getDocument('servicesPage')
    expect(servicesPage?.writingServices).toContain('Ghostwriting')
    const testimonials = await t.anon.fetch<string[]>(
      '*[_type == "testimonial"] | order(order asc).name',
    )
    expect(testimonials).toEqual(testimonialsCopy.map((doc) => doc.name))
    const categories = await t.anon.fetch<string[]>(
      '*[_type == "category"] | order(order asc, title asc).title',
    )
    expect(categories).toEqual([
      'Fiction',
      'Mountaineering',
      'Motorcycles',
      'Kashmir',
      'General',
      'Travel',
    ])
  })

  it('points every post at its category document: published, draft and release version', async () => {
    const all = await t.owner.fetch<{_id: string; category: unknown; title: string | null}[]>(
      '*[_type == "post"]{_id, category, "title": category->title}',
      {},
      {perspective: 'raw'},
    )
    expect(all.length).toBe(posts.length + 3)
    for (const post of all) expect(post.category).toMatchObject({_type: 'reference'})
    const byId = new Map(all.map((post) => [post._id, post.title]))
    const [first, second] = posts
    expect(byId.get(`drafts.${first._id}`)).toBe('Kashmir')
    expect(byId.get(`versions.rSpring.${second._id}`)).toBe(second.category)
    expect(byId.get('post-travel')).toBe('Travel')
    for (const post of posts) expect(byId.get(post._id)).toBe(post.category)
  })

  it('leaves the blog reading the same: a tab by its old address', async () => {
    const kashmir = posts.filter((post) => post.category === 'Kashmir').length
    const page = await t.anon.fetch(postPageQuery, {category: 'Kashmir', start: 0, end: 100})
    expect(page.total).toBe(kashmir)
    expect(page.posts.every((post) => post.category === 'Kashmir')).toBe(true)
  })

  it('changes nothing when run again', async () => {
    const revision = t.lake.revision
    expect(await upgradeSiteCopy(t.lake)).toBe(0)
    expect(t.lake.revision).toBe(revision)
  })

  it('leaves an empty lake empty (the seed or the site’s fallbacks fill it)', async () => {
    const empty = await startLakeUnderTest()
    try {
      expect(await upgradeSiteCopy(empty.lake)).toBe(0)
      expect(empty.lake.revision).toBe(0)
    } finally {
      await empty.stop()
    }
  })
})
