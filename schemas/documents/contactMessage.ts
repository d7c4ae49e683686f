import {defineField, defineType} from 'sanity'

/** Where a message is on its way to the owner's mailbox (server/contact/outbox.ts moves it). */
export const contactMessageStatuses = ['pending', 'sent', 'failed', 'spam'] as const
export type ContactMessageStatus = (typeof contactMessageStatuses)[number]

// Words, not emoji: they read the same on every system and to screen readers.
const statusLabels: Record<ContactMessageStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed – will retry',
  spam: 'Spam',
}

/**
 * A message a visitor sent through the contact form, stored by the relay under a private
 * `inbox.<uuid>` id before it is answered. The relay alone writes it, so the Studio shows it
 * read-only (docs/contact.md).
 */
export const contactMessage = defineType({
  name: 'contactMessage',
  title: 'Contact message',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({name: 'name', title: 'Name', type: 'string'}),
    defineField({name: 'email', title: 'Email', type: 'string'}),
    defineField({name: 'message', title: 'Message', type: 'text', rows: 8}),
    defineField({
      name: 'replyTo',
      title: 'Reply-To',
      type: 'string',
      description: 'A different reply address the form gave (FormSubmit’s _replyto).',
    }),
    defineField({name: 'subject', title: 'Subject', type: 'string'}),
    defineField({name: 'page', title: 'Sent from page', type: 'string'}),
    defineField({name: 'receivedAt', title: 'Received at', type: 'datetime'}),
    defineField({
      name: 'status',
      title: 'Status',
      type: 'string',
      options: {list: contactMessageStatuses.map((value) => ({title: statusLabels[value], value}))},
    }),
    defineField({name: 'attempts', title: 'Delivery attempts', type: 'number'}),
    defineField({name: 'lastAttemptAt', title: 'Last delivery attempt', type: 'datetime'}),
    defineField({name: 'lastError', title: 'Last delivery error', type: 'string'}),
    defineField({name: 'sentAt', title: 'Mailed at', type: 'datetime'}),
  ],
  orderings: [
    {
      title: 'Received, newest first',
      name: 'receivedAtDesc',
      by: [{field: 'receivedAt', direction: 'desc'}],
    },
  ],
  preview: {
    select: {
      name: 'name',
      email: 'email',
      status: 'status',
      receivedAt: 'receivedAt',
      message: 'message',
    },
    prepare({name, email, status, receivedAt, message}) {
      const known = contactMessageStatuses.find((value) => value === status)
      const label = known ? statusLabels[known] : String(status ?? '')
      // In the owner's own time zone and locale (the preview runs in their browser).
      const when =
        typeof receivedAt === 'string'
          ? new Date(receivedAt).toLocaleString(undefined, {
              dateStyle: 'medium',
              timeStyle: 'short',
            })
          : ''
      return {
        title: `${name ?? 'Unknown'}${email ? ` <${email}>` : ''}`,
        subtitle: [label, when].filter(Boolean).join(' · '),
        description: typeof message === 'string' ? message.slice(0, 120) : undefined,
      }
    },
  },
})
