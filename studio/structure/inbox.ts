import type {StructureBuilder} from 'sanity/structure'
import {readOnlyList} from './readOnlyList.ts'

/** The relay's document type (schemas/documents/contactMessage.ts). */
export const inboxType = 'contactMessage'

/** Newest first, by when the relay received the message (not when the row last changed). */
export const inboxOrdering = [{field: 'receivedAt', direction: 'desc' as const}]

/**
 * The contact form's Inbox: every message the relay stored, newest first, its delivery status
 * in each row's preview (the schema's `preview`). Read-only: the relay is the only writer, so
 * the list offers no "create" and the documents' fields are read-only in the form; opening a
 * message from search lands here too.
 */
export function inboxListItem(S: StructureBuilder) {
  return readOnlyList(S, {
    id: 'inbox',
    listId: 'inbox-messages',
    title: 'Inbox',
    type: inboxType,
    filter: '_type == $type',
    ordering: inboxOrdering,
  })
}

/**
 * For sanity.config.ts `document.newDocumentOptions`: keeps "Contact message" out of the
 * Studio's global "create" menu, since only the relay writes messages.
 */
export function withoutInboxTemplates<T extends {templateId: string}>(templates: T[]): T[] {
  // The newsletter's and the social web's documents are the server's too (subscribers.ts, comments.ts).
  const serverOnly = new Set([
    inboxType,
    'subscriber',
    'newsletterIssue',
    'socialComment',
    'socialThread',
    'socialFollower',
    'socialBlock',
  ])
  return templates.filter((template) => !serverOnly.has(template.templateId))
}
