import type {StructureBuilder} from 'sanity/structure'
import {statusList} from './readOnlyList.ts'

/** The social web's replies (schemas/documents/socialComment.ts). */
export const commentType = 'socialComment'

const newestFirst = [{field: 'published', direction: 'desc' as const}]

/** One list of the pane: the documents in `status`, or all of them (null). */
function commentList(S: StructureBuilder, id: string, title: string, status: string | null) {
  return statusList(S, {id, title, type: commentType, status, ordering: newestFirst})
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
