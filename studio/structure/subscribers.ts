import type {StructureBuilder, StructureResolverContext} from 'sanity/structure'
import {apiVersion} from '../../shared/constants.ts'
import {counted, liveCountsItem} from './liveCounts.ts'
import {statusList} from './readOnlyList.ts'
import {UnsubscribedNote} from './UnsubscribedNote.tsx'

/** The newsletter's document types (schemas/documents/subscriber.ts, newsletterIssue.ts). */
export const subscriberType = 'subscriber'
export const newsletterIssueType = 'newsletterIssue'

const newestFirst = [{field: 'subscribedAt', direction: 'desc' as const}]

/** How many subscribers are in each state; unsubscribed addresses are only hashes (server/newsletter/subscribers.ts). */
interface SubscriberCounts {
  all: number
  active: number
  pending: number
  unsubscribed: number
}

const countsQuery = `{
  "all": count(*[_type == "subscriber"]),
  "active": count(*[_type == "subscriber" && status == "active"]),
  "pending": count(*[_type == "subscriber" && status == "pending"]),
  "unsubscribed": count(*[_type == "unsubscribedAddress"])
}`
/** Any change to these documents is a reason to count again. */
const countsListen = '*[_type in ["subscriber", "unsubscribedAddress"]]'

/** One list of the pane: the documents in `status`, or all of them (null). */
function subscriberList(S: StructureBuilder, id: string, title: string, status: string | null) {
  return statusList(S, {id, title, type: subscriberType, status, ordering: newestFirst})
}

/** The Newsletter pane for one set of counts. */
function newsletterList(S: StructureBuilder, counts: SubscriberCounts) {
  return S.list()
    .id('newsletter-lists')
    .title('Newsletter')
    .items([
      subscriberList(S, 'subscribers-all', counted('All subscribers', counts.all), null),
      subscriberList(S, 'subscribers-active', counted('Active', counts.active), 'active'),
      subscriberList(S, 'subscribers-pending', counted('Pending', counts.pending), 'pending'),
      S.listItem()
        .id('subscribers-unsubscribed')
        .title(counted('Unsubscribed', counts.unsubscribed))
        .child(
          S.component(UnsubscribedNote)
            .id('subscribers-unsubscribed-note')
            .title(counted('Unsubscribed', counts.unsubscribed)),
        ),
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
    ])
}

/**
 * Subscribers, read-only like the Inbox (the server is the only writer): all, active and
 * pending, each row showing its status, each list's title its count, kept live (the counts are
 * queried again whenever a subscriber or an unsubscribed address changes); how many have
 * unsubscribed; and the new-post mailings with their delivery counts and failures. The CSV
 * export is GET /api/subscribers.csv (docs/newsletter.md).
 */
export function subscribersListItem(S: StructureBuilder, context: StructureResolverContext) {
  return liveCountsItem(S, context, {
    id: 'newsletter',
    title: 'Newsletter',
    tag: 'newsletter.counts',
    countsQuery,
    listen: countsListen,
    list: (counts: SubscriberCounts) => newsletterList(S, counts),
  })
}
