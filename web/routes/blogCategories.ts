import type {SanityClient} from '@sanity/client'
import {postCategories} from '../../schemas/categories.ts'
import type {CategoriesQueryResult} from '../../shared/sanity.types.ts'
import {categoriesQuery} from '../queries.ts'
import {prefetchFreshMs} from './blogPrefetch.ts'
import {readPayload} from '../payload.ts'

/** A category's tab: its slug names it in the address; a category with no title shows its slug. */
export interface BlogCategory {
  slug: string
  title: string
  /** Its document's id (the preview's click-to-edit); none for today's built-in categories. */
  id?: string
}

function tabsOf(found: CategoriesQueryResult): BlogCategory[] {
  return found.flatMap(({_id, slug, title}) =>
    slug ? [{slug, title: title?.trim() || slug, id: _id}] : [],
  )
}

/**
 * Today's categories, for a lake that holds no category document yet (an empty data dir started
 * without the seed): their slugs are their titles, as the seed's are (content/siteCopy.ts).
 */
const todaysCategories: BlogCategory[] = postCategories.map((title) => ({slug: title, title}))

let known: {at: number; categories: Promise<BlogCategory[]>} | undefined

/**
 * The blog's categories in tab order. In the browser the last answer is kept for a short while,
 * so a tap on a tab (its posts fetched ahead, blogPrefetch.ts) costs no round trip for them; not
 * in preview, where each saved draft revalidates the page and a new category's tab must show.
 */
export function loadCategories(client: SanityClient): Promise<BlogCategory[]> {
  const browser = typeof window !== 'undefined' && readPayload().preview !== true
  if (browser && known && Date.now() - known.at < prefetchFreshMs) return known.categories
  const categories = client
    .fetch(categoriesQuery)
    .then((found) => (found.length > 0 ? tabsOf(found) : todaysCategories))
  if (browser) {
    known = {at: Date.now(), categories}
    categories.catch(() => (known = undefined))
  }
  return categories
}
