import type {StructureBuilder} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'

/** The social web's replies (schemas/documents/socialComment.ts). */
export const commentType = 'socialComment'

const newestFirst = [{field: 'published', direction: 'desc' as const}]

function commentList(S: StructureBuilder, id: string, title: string, status: string | null) {
  return S.listItem()
    .id(id)
    .title(title)
    .schemaType(commentType)
    .child(
      S.documentList()
        .id(`${id}-list`)
        .title(title)
        .schemaType(commentType)
        .apiVersion(apiVersion)
        .filter('_type == $type && ($status == null || status == $status)')
        .params({type: commentType, status})
        .defaultOrdering(newestFirst)
        .menuItems([])
        .canHandleIntent((intent, params) => intent === 'edit' && params.type === commentType)
        // Last: every other builder call clones the list and re-infers the "create" templates.
        .initialValueTemplates([]),
    )
}

/**
 * Comments from the fediverse, to moderate: pending first (what awaits the owner), then approved,
 * hidden and all. A comment opens with its status as the one editable field (approve or hide) and
 * the document menu's Delete; nothing is created here, only the social web stores replies.
 */
export function commentsListItem(S: StructureBuilder) {
  return S.listItem()
    .id('comments')
    .title('Comments')
    .child(
      S.list()
        .id('comments-lists')
        .title('Comments')
        .items([
          commentList(S, 'comments-pending', 'Pending', 'pending'),
          commentList(S, 'comments-approved', 'Approved', 'approved'),
          commentList(S, 'comments-hidden', 'Hidden', 'hidden'),
          commentList(S, 'comments-all', 'All comments', null),
        ]),
    )
}
