import {defineField, defineType} from 'sanity'

/** Where a subscription is (server/newsletter/subscribers.ts moves it). */
export const subscriberStatuses = ['pending', 'active'] as const
export type SubscriberStatus = (typeof subscriberStatuses)[number]

const statusLabels: Record<SubscriberStatus, string> = {
  pending: 'Pending – not confirmed',
  active: 'Active',
}

/**
 * An email subscriber, stored by the newsletter under a private `subscriber.<hash>` id. The
 * server alone writes it (subscribe, confirm, unsubscribe deletes it), so the Studio shows it
 * read-only (docs/newsletter.md).
 */
export const subscriber = defineType({
  name: 'subscriber',
  title: 'Subscriber',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({name: 'email', title: 'Email', type: 'string'}),
    defineField({
      name: 'status',
      title: 'Status',
      type: 'string',
      options: {list: subscriberStatuses.map((value) => ({title: statusLabels[value], value}))},
    }),
    defineField({name: 'subscribedAt', title: 'Subscribed at', type: 'datetime'}),
    defineField({name: 'confirmedAt', title: 'Confirmed at', type: 'datetime'}),
    defineField({name: 'lastMailAt', title: 'Last subscription mail', type: 'datetime'}),
  ],
  orderings: [
    {
      title: 'Subscribed, newest first',
      name: 'subscribedAtDesc',
      by: [{field: 'subscribedAt', direction: 'desc'}],
    },
  ],
  preview: {
    select: {email: 'email', status: 'status', subscribedAt: 'subscribedAt'},
    prepare({email, status, subscribedAt}) {
      const known = subscriberStatuses.find((value) => value === status)
      const when =
        typeof subscribedAt === 'string'
          ? new Date(subscribedAt).toLocaleDateString(undefined, {dateStyle: 'medium'})
          : ''
      return {
        title: typeof email === 'string' ? email : 'Unknown',
        subtitle: [known ? statusLabels[known] : String(status ?? ''), when]
          .filter(Boolean)
          .join(' · '),
      }
    },
  },
})
