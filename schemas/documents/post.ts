import {defineField, defineType} from 'sanity'
import {requiredString} from '../fields/requiredString.ts'
import {slugFromTitle} from '../fields/slugFromTitle.ts'
import {postImageFields, postImageOptions} from '../objects/postImage.ts'

/** A blog post: the spec's entity (title, slug, date, excerpt, category, body) plus an optional cover image. */
export const post = defineType({
  name: 'post',
  title: 'Post',
  type: 'document',
  fields: [
    requiredString('title', 'Title'),
    slugFromTitle(96),
    defineField({
      name: 'date',
      title: 'Date',
      type: 'date',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'excerpt',
      title: 'Excerpt',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.max(200),
    }),
    defineField({
      name: 'category',
      title: 'Category',
      // A strong reference: the lake refuses to delete a category a published post names.
      type: 'reference',
      to: [{type: 'category'}],
      options: {disableNew: true},
      validation: (rule) => rule.required(),
    }),
    defineField({
      // Not in the spec's entity: the post's cover (issue 22), shown at the top of the post, on
      // its card in lists and as its share card.
      name: 'mainImage',
      title: 'Cover image',
      type: 'image',
      options: postImageOptions,
      fields: postImageFields,
    }),
    defineField({
      name: 'body',
      title: 'Body',
      type: 'blockContent',
    }),
    defineField({
      // Read by server/newsletter/mailing.ts at the post's first publish (docs/newsletter.md).
      name: 'newsletter',
      title: 'Email this post to subscribers',
      description:
        'When the post is published for the first time, each active subscriber gets one mail (after a short grace period). Turn off before publishing to send nothing.',
      type: 'boolean',
      initialValue: true,
    }),
    defineField({
      // Read by server/social/publications.ts (docs/social-web.md); missing means on.
      name: 'socialWeb',
      title: 'Share to the social web',
      description:
        'Followers on Mastodon and the rest of the fediverse get the post when it is first published, and its edits. Turn off to keep it off their timelines.',
      type: 'boolean',
      initialValue: true,
    }),
  ],
  orderings: [
    {title: 'Date, newest first', name: 'dateDesc', by: [{field: 'date', direction: 'desc'}]},
  ],
  preview: {
    select: {title: 'title', category: 'category.title', date: 'date'},
    prepare({title, category, date}) {
      return {title, subtitle: [category, date].filter(Boolean).join(' · ')}
    },
  },
})
