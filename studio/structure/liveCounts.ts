import {map} from 'rxjs'
import type {ListBuilder, StructureBuilder, StructureResolverContext} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'

/** "Active (12)": a list item's title with its count. */
export const counted = (title: string, count: number) => `${title} (${count})`

interface LiveCountsSpec<Counts> {
  id: string
  title: string
  /** The request tag of the counting query (`<feature>.counts`). */
  tag: string
  /** A GROQ projection of the counts, and the documents whose changes are a reason to count again. */
  countsQuery: string
  listen: string
  list: (counts: Counts) => ListBuilder
}

/**
 * A pane whose lists carry their counts in their titles, kept live: the counts are queried again
 * (at most once a second) whenever a listened document changes, and the pane is built anew.
 */
export function liveCountsItem<Counts>(
  S: StructureBuilder,
  context: StructureResolverContext,
  spec: LiveCountsSpec<Counts>,
) {
  return S.listItem()
    .id(spec.id)
    .title(spec.title)
    .child(
      context.documentStore
        .listenQuery(
          {fetch: spec.countsQuery, listen: spec.listen},
          {},
          {apiVersion, tag: spec.tag, throttleTime: 1000},
        )
        .pipe(map((counts: Counts) => spec.list(counts))),
    )
}
