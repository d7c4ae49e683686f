/**
 * The start-time upgrade of a data dir made before the site's copy became documents
 * (docs/site-editing.md): creates the singletons, categories and testimonials it lacks from
 * today's copy (content/siteCopy.ts), and points every post's category (drafts and the versions
 * of active releases included) at its category document. One transaction, so the history shows
 * one change; nothing the owner wrote is replaced (`createIfNotExists`, and a post whose category
 * is already a reference is left alone); a second run finds nothing to do and commits nothing.
 */
import type {Lake} from '../server/lake/index.ts'
import {categoriesCopy, siteCopyDocuments, siteSettingsCopy, type CopyDocument} from './siteCopy.ts'
import {privacyUpgrade, type FoundPrivacy} from './privacyUpgrade.ts'
import {privacyReviewMessage} from '../schemas/privacyPromise.ts'

/** What the lake holds that the upgrade decides on, read in one query across every perspective. */
interface Found {
  /** Ids of today's copy documents present, published or draft. */
  present: string[]
  categories: {_id: string; title: unknown; slug: unknown}[]
  posts: {_id: string; category: string}[]
  activeReleases: string[]
  /** The settings' privacy text, published and draft (content/privacyUpgrade.ts). */
  privacy: FoundPrivacy[]
}

const foundQuery = /* groq */ `{
  "present": *[_id in $ids || _id in $draftIds]._id,
  "categories": *[_type == "category" && !(_id in path("drafts.**")) && !(_id in path("versions.**"))]{_id, title, "slug": slug.current},
  "posts": *[_type == "post" && defined(category) && !defined(category._ref)]{_id, category},
  "activeReleases": *[_type == "system.release" && state == "active"]._id,
  "privacy": *[_id in ["siteSettings", "drafts.siteSettings"] && defined(footerModals.privacy.paragraphs)]{_id, "paragraphs": footerModals.privacy.paragraphs}
}`

/** A category id for a title no category of today's list has (a post written through the API). */
function idFor(title: string, taken: Set<string>): string {
  const base = `category-${
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'untitled'
  }`
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  taken.add(id)
  return id
}

/** The release a version id belongs to (`versions.<release>.<id>`), or undefined. */
const releaseOf = (id: string) => /^versions\.([^.]+)\./.exec(id)?.[1]

/**
 * The mutations that bring the lake up to date, or none. A data dir that predates the copy has no
 * settings document: only then are today's categories and testimonials created, so a category or
 * testimonial the owner deleted later is not brought back by a restart.
 */
export function upgradeMutations(found: Found): {mutations: unknown[]; privacyReview: string[]} {
  const present = new Set(found.present.map((id) => id.replace(/^drafts\./, '')))
  const firstUpgrade = !present.has(siteSettingsCopy._id)
  const creates: CopyDocument[] = siteCopyDocuments.filter(
    (doc) =>
      !present.has(doc._id) &&
      (firstUpgrade || ['siteSettings', 'homePage', 'servicesPage'].includes(doc._id)),
  )
  // Categories by title: the lake's own, then today's it is about to create, then new ones.
  const byTitle = new Map<string, string>()
  for (const doc of [...found.categories, ...creates.filter((d) => d._type === 'category')])
    if (typeof doc.title === 'string' && !byTitle.has(doc.title)) byTitle.set(doc.title, doc._id)
  const taken = new Set([
    ...found.categories.map((c) => c._id),
    ...categoriesCopy.map((c) => c._id),
  ])
  const active = new Set(found.activeReleases.map((id) => id.replace(/^_\.releases\./, '')))
  const patches: unknown[] = []
  for (const post of found.posts) {
    const release = releaseOf(post._id)
    // A published or archived release's versions are history: the lake refuses to change them.
    if (release !== undefined && !active.has(release)) continue
    if (typeof post.category !== 'string' || post.category.trim() === '') continue
    let ref = byTitle.get(post.category)
    if (!ref) {
      ref = idFor(post.category, taken)
      byTitle.set(post.category, ref)
      creates.push({
        _id: ref,
        _type: 'category',
        title: post.category,
        slug: {_type: 'slug', current: post.category},
      })
    }
    patches.push({
      patch: {id: post._id, set: {category: {_type: 'reference', _ref: ref}}},
    })
  }
  // A privacy text no one edited since an earlier seed wrote it becomes today's (issue #37).
  const privacy = privacyUpgrade(found.privacy)
  return {
    mutations: [
      ...creates.map((doc) => ({createIfNotExists: doc})),
      ...patches,
      ...privacy.patches,
    ],
    privacyReview: privacy.review,
  }
}

/**
 * Upgrades the lake's content at start (server/start.ts), before it serves. An empty lake (never
 * written) is left empty: the seed fills it, or the site shows today's copy as its fallback.
 * Returns how many mutations the one transaction held (0: nothing to do). `log` is a seam for
 * tests; the server logs to the console.
 */
export async function upgradeSiteCopy(
  lake: Lake,
  log: Pick<Console, 'log' | 'warn'> = console,
): Promise<number> {
  if (lake.revision === 0) return 0
  const ids = siteCopyDocuments.map((doc) => doc._id)
  const found = await lake.query<Found>(
    foundQuery,
    {ids, draftIds: ids.map((id) => `drafts.${id}`)},
    {perspective: 'raw', authenticated: true},
  )
  const {mutations, privacyReview} = upgradeMutations(found)
  if (privacyReview.length > 0)
    log.warn(`[lake] Site settings → Footer → Privacy: ${privacyReviewMessage}`)
  if (mutations.length === 0) return 0
  await lake.mutate(mutations)
  log.log(`[lake] upgraded the site's copy: ${mutations.length} changes in one transaction`)
  return mutations.length
}
