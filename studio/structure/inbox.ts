import type {StructureBuilder} from 'sanity/structure'

/**
 * The contact form's Inbox: messages newest first, read-only. Minimal version written for the
 * Studio's structure; the contact feature owns and refines it (schema `contactMessage`).
 */
export function inboxListItem(S: StructureBuilder) {
  return S.listItem()
    .id('inbox')
    .title('Inbox')
    .child(
      S.documentList()
        .id('inbox-messages')
        .title('Inbox')
        .apiVersion('2023-07-29')
        .filter('_type == "contactMessage"')
        .defaultOrdering([{field: '_createdAt', direction: 'desc'}])
        .canHandleIntent(() => false)
        .menuItems([]),
    )
}
