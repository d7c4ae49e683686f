import {defineField, defineType} from 'sanity'

/** Where a post's new-post mailing is (server/newsletter/mailing.ts moves it). */
export const newsletterIssueStatuses = [
  'scheduled',
  'cancelled',
  'off',
  'sending',
  'sent',
  'existing',
] as const
export type NewsletterIssueStatus = (typeof newsletterIssueStatuses)[number]

const statusLabels: Record<NewsletterIssueStatus, string> = {
  scheduled: 'Scheduled (grace period)',
  cancelled: 'Cancelled – unpublished in the grace period',
  off: 'Off for this post',
  sending: 'Sending',
  sent: 'Sent',
  existing: 'Published before the newsletter',
}

/**
 * The new-post mail of one post, stored by the server under a private `mailing.<post id>` id:
 * its status, how many subscribers it went to, and the failures (docs/newsletter.md).
 */
export const newsletterIssue = defineType({
  name: 'newsletterIssue',
  title: 'New-post mailing',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({name: 'title', title: 'Post title', type: 'string'}),
    defineField({name: 'postId', title: 'Post id', type: 'string'}),
    defineField({
      name: 'status',
      title: 'Status',
      type: 'string',
      options: {
        list: newsletterIssueStatuses.map((value) => ({title: statusLabels[value], value})),
      },
    }),
    defineField({name: 'publishedAt', title: 'First published at', type: 'datetime'}),
    defineField({name: 'dueAt', title: 'Mails from', type: 'datetime'}),
    defineField({name: 'recipients', title: 'Recipients', type: 'number'}),
    defineField({name: 'sent', title: 'Sent', type: 'number'}),
    defineField({name: 'failed', title: 'Failing now', type: 'number'}),
    defineField({name: 'lastError', title: 'Last delivery error', type: 'string'}),
  ],
  preview: {
    select: {
      title: 'title',
      status: 'status',
      sent: 'sent',
      recipients: 'recipients',
      failed: 'failed',
    },
    prepare({title, status, sent, recipients, failed}) {
      const known = newsletterIssueStatuses.find((value) => value === status)
      const counts = typeof recipients === 'number' ? `${Number(sent ?? 0)}/${recipients} sent` : ''
      const failing = typeof failed === 'number' && failed > 0 ? `${failed} failing` : ''
      return {
        title: typeof title === 'string' ? title : 'Untitled post',
        subtitle: [known ? statusLabels[known] : String(status ?? ''), counts, failing]
          .filter(Boolean)
          .join(' · '),
      }
    },
  },
})
