import {defineField, defineType} from 'sanity'

/** Where a reply from the fediverse is in moderation (server/social/replies.ts stores it pending). */
export const commentStatuses = ['pending', 'approved', 'hidden'] as const
export type CommentStatus = (typeof commentStatuses)[number]

const statusLabels: Record<CommentStatus, string> = {
  pending: 'Pending – not shown',
  approved: 'Approved – shown under the post',
  hidden: 'Hidden',
}

/**
 * A reply from the fediverse, stored by the social web under a private `comment.<hash>` id
 * (docs/social-web.md). The owner moderates it: only `status` is editable. `liveEdit`: a private
 * document has no draft, so a status change is written straight to it (the Studio's
 * `/data/mutate`), and the server then shows or withdraws it under the post at once.
 */
export const socialComment = defineType({
  name: 'socialComment',
  title: 'Comment',
  type: 'document',
  liveEdit: true,
  fields: [
    defineField({
      name: 'status',
      title: 'Status',
      type: 'string',
      options: {
        list: commentStatuses.map((value) => ({title: statusLabels[value], value})),
        layout: 'radio',
      },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'author',
      title: 'Author',
      type: 'object',
      readOnly: true,
      fields: [
        defineField({name: 'name', title: 'Name', type: 'string'}),
        defineField({name: 'handle', title: 'Handle', type: 'string'}),
        defineField({name: 'profile', title: 'Profile', type: 'url'}),
        defineField({
          name: 'avatar',
          title: 'Avatar (remote, never shown to readers)',
          type: 'url',
        }),
        defineField({name: 'actor', title: 'Actor', type: 'url'}),
      ],
    }),
    defineField({
      name: 'content',
      title: 'Content (sanitized HTML)',
      type: 'text',
      rows: 6,
      readOnly: true,
    }),
    defineField({name: 'summary', title: 'Content warning', type: 'string', readOnly: true}),
    defineField({name: 'sensitive', title: 'Sensitive', type: 'boolean', readOnly: true}),
    defineField({name: 'postId', title: 'Post (id)', type: 'string', readOnly: true}),
    defineField({
      name: 'inReplyToComment',
      title: 'Answers comment (id)',
      type: 'string',
      readOnly: true,
    }),
    defineField({name: 'url', title: 'Original', type: 'url', readOnly: true}),
    defineField({name: 'noteId', title: 'Note id', type: 'string', readOnly: true}),
    defineField({name: 'published', title: 'Written at', type: 'datetime', readOnly: true}),
    defineField({name: 'updated', title: 'Edited at', type: 'datetime', readOnly: true}),
  ],
  orderings: [
    {title: 'Newest first', name: 'publishedDesc', by: [{field: 'published', direction: 'desc'}]},
  ],
  preview: {
    select: {name: 'author.name', handle: 'author.handle', status: 'status', content: 'content'},
    prepare({name, handle, status, content}) {
      const known = commentStatuses.find((value) => value === status)
      const text = typeof content === 'string' ? content.replace(/<[^>]*>/g, ' ').trim() : ''
      return {
        title:
          [name, handle].filter((part) => typeof part === 'string' && part).join(' ') || 'Unknown',
        subtitle: known ? statusLabels[known] : String(status ?? ''),
        description: text.slice(0, 120),
      }
    },
  },
})
