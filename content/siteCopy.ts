/**
 * Today's copy of the site (web/content/, schemas/categories.ts, shared/siteIdentity.ts) as the
 * documents the owner edits in the Studio: the seed dataset holds them (content/build-seed.ts),
 * and the start-time upgrade creates whichever an existing data dir lacks (content/upgrade.ts).
 * The site falls back to the same copy when a document or a field is missing.
 */
import {postCategories, type PostCategory} from '../schemas/categories.ts'
import {
  blogSamples,
  editingServices,
  modusOperandi,
  writingServices,
} from '../web/content/services.ts'
import {footerModals, homeIntro, owner, siteDescription, siteName} from '../web/content/site.ts'
import {editedBooks, testimonials} from '../web/content/testimonials.ts'

/** A document of the site's copy, before the lake gives it its system fields. */
export interface CopyDocument {
  _id: string
  _type: string
  [field: string]: unknown
}

/** The fixed id of a category of today's list, which posts' references point at. */
export function categoryId(title: PostCategory): string {
  return `category-${title.toLowerCase()}`
}

/** A strong reference to a category of today's list. */
export function categoryRef(title: PostCategory) {
  return {_type: 'reference', _ref: categoryId(title)}
}

/** Keys for array items, stable from one build to the next (the Studio needs `_key`s). */
const keyed = <T extends object>(prefix: string, items: readonly T[]) =>
  items.map((item, i) => ({_key: `${prefix}${i}`, ...item}))

const modal = (name: keyof typeof footerModals) => ({
  _type: 'footerModal',
  label: footerModals[name].label,
  title: footerModals[name].title,
  paragraphs: [...footerModals[name].paragraphs],
})

export const siteSettingsCopy: CopyDocument = {
  _id: 'siteSettings',
  _type: 'siteSettings',
  siteName,
  ownerName: owner.name,
  ownerTitle: owner.title,
  place: owner.place,
  description: siteDescription,
  footerModals: {me: modal('me'), privacy: modal('privacy'), client: modal('client')},
  socialLinks: [],
  fediverseHandle: 'writer',
}

export const homePageCopy: CopyDocument = {
  _id: 'homePage',
  _type: 'homePage',
  intro: homeIntro,
  blogButton: 'Read the blog',
  latestHeading: 'Latest writing',
  showLatest: true,
  voicesHeading: 'What clients say',
  showVoices: true,
  showSubscribe: true,
}

export const servicesPageCopy: CopyDocument = {
  _id: 'servicesPage',
  _type: 'servicesPage',
  writingServices: [...writingServices],
  editingServices: [...editingServices],
  howIWork: [...modusOperandi],
  blogSamples: keyed(
    'sample',
    blogSamples.map((s) => ({
      _type: 'blogSample',
      label: s.label,
      category: categoryRef(s.category),
    })),
  ),
  editedBooks: [...editedBooks],
}

/** 'Aamir K., novelist' → name and role, as the testimonial document stores them. */
function splitAuthor(author: string): {name: string; role?: string} {
  const comma = author.indexOf(', ')
  return comma < 0 ? {name: author} : {name: author.slice(0, comma), role: author.slice(comma + 2)}
}

export const testimonialsCopy: CopyDocument[] = testimonials.map((t, i) => ({
  _id: `testimonial-${i + 1}`,
  _type: 'testimonial',
  quote: t.quote,
  ...splitAuthor(t.author),
  order: i + 1,
}))

/** Today's categories; their slugs are today's tab addresses (`?category=Fiction`). */
export const categoriesCopy: CopyDocument[] = postCategories.map((title, i) => ({
  _id: categoryId(title),
  _type: 'category',
  title,
  slug: {_type: 'slug', current: title},
  order: i + 1,
}))

/** Every document of the site's copy, singletons first. */
export const siteCopyDocuments: CopyDocument[] = [
  siteSettingsCopy,
  homePageCopy,
  servicesPageCopy,
  ...categoriesCopy,
  ...testimonialsCopy,
]
