import type {StructureBuilder} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'

/** The newsletter's document types (schemas/documents/subscriber.ts, newsletterIssue.ts). */
export const subscriberType = 'subscriber'
export const newsletterIssueType = 'newsletterIssue'

const newestFirst = [{field: 'subscribedAt', direction: 'desc' as const}]

function subscriberList(S: StructureBuilder, id: string, title: string, status: string | null) {
  return S.listItem()
    .id(id)
    .title(title)
    .schemaType(subscriberType)
    .child(
      S.documentList()
        .id(`${id}-list`)
        .title(title)
        .schemaType(subscriberType)
        .apiVersion(apiVersion)
        .filter('_type == $type && ($status == null || status == $status)')
        .params({type: subscriberType, status})
        .defaultOrdering(newestFirst)
        .menuItems([])
        .canHandleIntent((intent, params) => intent === 'edit' && params.type === subscriberType)
        // Last: every other builder call clones the list and re-infers the "create" templates.
        .initialValueTemplates([]),
    )
}

/**
 * Subscribers, read-only like the Inbox (the server is the only writer): all, active and
 * pending, each row showing its status; and the new-post mailings with their delivery counts
 * and failures. The CSV export is GET /api/subscribers.csv (docs/newsletter.md).
 */
export function subscribersListItem(S: StructureBuilder) {
  return S.listItem()
    .id('newsletter')
    .title('Newsletter')
    .child(
      S.list()
        .id('newsletter-lists')
        .title('Newsletter')
        .items([
          subscriberList(S, 'subscribers-all', 'All subscribers', null),
          subscriberList(S, 'subscribers-active', 'Active', 'active'),
          subscriberList(S, 'subscribers-pending', 'Pending', 'pending'),
          S.divider(),
          S.listItem()
            .id('newsletter-issues')
            .title('New-post mailings')
            .schemaType(newsletterIssueType)
            .child(
              S.documentList()
                .id('newsletter-issues-list')
                .title('New-post mailings')
                .schemaType(newsletterIssueType)
                .apiVersion(apiVersion)
                .filter('_type == $type')
                .params({type: newsletterIssueType})
                .defaultOrdering([{field: 'publishedAt', direction: 'desc'}])
                .menuItems([])
                .initialValueTemplates([]),
            ),
        ]),
    )
}
