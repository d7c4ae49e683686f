/**
 * The redirects the site makes itself (docs/site-editing.md): when a published post's or
 * category's slug changes, its old address answers 301 to the new one, forever. Chains are
 * collapsed as they form (a redirect to the old address now points at the new one), and a
 * redirect from the new address is dropped (the page lives there again), so every redirect is
 * one hop and none loops. Runs in the content process on the lake's commits (server/start.ts).
 */
import {createHash} from 'node:crypto'
import type {Doc, Lake} from '../server/lake/index.ts'
import {tabHref} from '../web/blogTabs.ts'

/** A page that moved: its old and new paths. */
export interface Move {
  from: string
  to: string
}

const slugOf = (doc: Doc | null): string | undefined => {
  const slug: unknown = doc?.slug
  return typeof slug === 'object' &&
    slug !== null &&
    'current' in slug &&
    typeof slug.current === 'string' &&
    slug.current !== ''
    ? slug.current
    : undefined
}

/** Where a published post or category is read, by its slug. */
function pathOf(type: unknown, slug: string): string | undefined {
  if (type === 'post') return `/blog/${encodeURIComponent(slug)}`
  if (type === 'category') return tabHref(slug)
  return undefined
}

/** The moves one commit makes: published posts and categories whose slug changed. */
export function movesOf(changes: {id: string; before: Doc | null; after: Doc | null}[]): Move[] {
  return changes.flatMap(({id, before, after}) => {
    if (id.includes('.') || !before || !after || before._type !== after._type) return []
    const old = slugOf(before)
    const now = slugOf(after)
    if (!old || !now || old === now) return []
    const from = pathOf(before._type, old)
    const to = pathOf(after._type, now)
    return from && to ? [{from, to}] : []
  })
}

interface Existing {
  _id: string
  from: string | null
  to: string | null
}

/** A stable id for the site's own redirect from `from`. */
const idFor = (from: string) =>
  `redirect-auto-${createHash('sha256').update(from).digest('hex').slice(0, 20)}`

/** The mutations that record `moves` beside the redirects that exist, as one transaction. */
export function redirectMutations(moves: Move[], existing: Existing[]): unknown[] {
  const mutations: unknown[] = []
  for (const {from, to} of moves) {
    for (const redirect of existing) {
      if (redirect.from === to) mutations.push({delete: {id: redirect._id}})
      else if (redirect.to === from) mutations.push({patch: {id: redirect._id, set: {to}}})
    }
    const own = existing.find((redirect) => redirect.from === from)
    if (own) mutations.push({patch: {id: own._id, set: {to}}})
    else
      mutations.push({
        createOrReplace: {
          _id: idFor(from),
          _type: 'redirect',
          from,
          to,
          external: false,
          permanent: true,
          automatic: true,
        },
      })
  }
  return mutations
}

/**
 * Follows the lake's commits and records each move as a redirect (one transaction per commit
 * that moved something). `idle()` resolves once every move seen so far is stored.
 */
export function startAutoRedirects(lake: Lake): {stop: () => void; idle: () => Promise<void>} {
  let queue: Promise<void> = Promise.resolve()
  const record = async (moves: Move[]) => {
    const paths = moves.flatMap(({from, to}) => [from, to])
    const existing = await lake.query<Existing[]>(
      `*[_type == "redirect" && !(_id in path("drafts.**")) && (from in $paths || to in $paths)]{_id, from, to}`,
      {paths},
      {perspective: 'raw', authenticated: true},
    )
    await lake.mutate(redirectMutations(moves, existing))
    console.log(`[redirects] ${moves.map(({from, to}) => `${from} → ${to}`).join(', ')}`)
  }
  const stop = lake.onCommit((tx) => {
    const moves = movesOf(tx.changes)
    if (moves.length === 0) return
    queue = queue
      .then(() => record(moves))
      .catch((error: unknown) => console.error('[redirects] could not record a move', error))
  })
  return {stop, idle: () => queue}
}
