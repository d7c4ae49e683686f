import type {ServicesPageQueryResult} from '../../shared/sanity.types.ts'
import {blogSamples, editingServices, modusOperandi, writingServices} from '../content/services.ts'

/** The Services page's lists as the page shows them, each in the owner's order. */
export interface ServicesCopy {
  writingServices: string[]
  editingServices: string[]
  howIWork: string[]
  /** Each sample links to its category's tab by the category's slug. */
  blogSamples: {key: string; label: string; category: string}[]
}

/** The lines that can be shown; none at all (a list emptied or missing) shows today's. */
function lines(raw: (string | null)[] | null | undefined, today: readonly string[]): string[] {
  const shown = (raw ?? []).filter((line): line is string => !!line && line.trim() !== '')
  return shown.length > 0 ? shown : [...today]
}

/** The services document with today's copy (web/content/services.ts) for whatever is missing. */
export function resolveServices(raw: ServicesPageQueryResult | undefined): ServicesCopy {
  const samples = (raw?.blogSamples ?? []).flatMap((s) =>
    s.label && s.category ? [{key: s._key, label: s.label, category: s.category}] : [],
  )
  return {
    writingServices: lines(raw?.writingServices, writingServices),
    editingServices: lines(raw?.editingServices, editingServices),
    howIWork: lines(raw?.howIWork, modusOperandi),
    blogSamples:
      samples.length > 0
        ? samples
        : blogSamples.map((s) => ({key: s.category, label: s.label, category: s.category})),
  }
}
