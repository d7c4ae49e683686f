import type {SortOrderingItem} from 'sanity'
import type {StructureBuilder} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'

interface ReadOnlyListSpec {
  /** The list item's id; its document list's is `listId`, or `<id>-list`. */
  id: string
  listId?: string
  title: string
  type: string
  /** A GROQ filter on `$type` and `params`. */
  filter: string
  params?: Record<string, unknown>
  ordering: SortOrderingItem[]
}

/**
 * A list of documents only the server writes (contact messages, subscribers, comments,
 * followers, blocks): no "create" in its menu or its templates, and it answers an "edit" intent
 * of its type, so a document opened from search lands in its list.
 */
export function readOnlyList(S: StructureBuilder, spec: ReadOnlyListSpec) {
  const {id, title, type} = spec
  return S.listItem()
    .id(id)
    .title(title)
    .schemaType(type)
    .child(
      S.documentList()
        .id(spec.listId ?? `${id}-list`)
        .title(title)
        .schemaType(type)
        .apiVersion(apiVersion)
        .filter(spec.filter)
        .params({type, ...spec.params})
        .defaultOrdering(spec.ordering)
        .menuItems([])
        .canHandleIntent((intent, params) => intent === 'edit' && params.type === type)
        // Last: every other builder call clones the list and re-infers the "create" templates.
        .initialValueTemplates([]),
    )
}

/**
 * The documents of `type` in one moderation or subscription `status` (`null`: all of them), newest
 * first by `ordering`: the Comments and Newsletter panes each list their states this way.
 */
export function statusList(
  S: StructureBuilder,
  {
    id,
    title,
    type,
    status,
    ordering,
  }: Omit<ReadOnlyListSpec, 'filter' | 'params'> & {
    status: string | null
  },
) {
  return readOnlyList(S, {
    id,
    title,
    type,
    filter: '_type == $type && ($status == null || status == $status)',
    params: {status},
    ordering,
  })
}
