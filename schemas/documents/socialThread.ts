import {defineArrayMember, defineField, defineType} from 'sanity'

/** The fields of one comment as the site shows it (no actor id, no avatar, nothing private). */
const shownCommentFields = [
  defineField({name: 'authorName', type: 'string'}),
  defineField({name: 'authorHandle', type: 'string'}),
  defineField({name: 'authorProfile', type: 'url'}),
  defineField({name: 'content', type: 'text'}),
  defineField({name: 'summary', type: 'string'}),
  defineField({name: 'published', type: 'datetime'}),
  defineField({name: 'url', type: 'url'}),
]

/**
 * A post's public side of the social web: its approved comments (one level of replies nested)
 * and its like and boost counts. The server alone writes it (server/social/threads.ts), as a
 * public projection of the private `comment.*` and `reaction.*` documents, so the site reads it
 * through its ordinary public read path. Not listed in the Studio's structure; read-only.
 */
export const socialThread = defineType({
  name: 'socialThread',
  title: 'Social thread',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({name: 'postId', title: 'Post (id)', type: 'string'}),
    defineField({name: 'likes', title: 'Likes', type: 'number'}),
    defineField({name: 'boosts', title: 'Boosts', type: 'number'}),
    defineField({
      name: 'comments',
      title: 'Approved comments',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'shownComment',
          fields: [
            ...shownCommentFields,
            defineField({
              name: 'replies',
              type: 'array',
              of: [
                defineArrayMember({
                  type: 'object',
                  name: 'shownReply',
                  fields: shownCommentFields,
                }),
              ],
            }),
          ],
        }),
      ],
    }),
  ],
})
