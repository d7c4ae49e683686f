import {defineField, defineType} from 'sanity'

/**
 * A follower on the social web, stored by the server under a private `follower.<hash>` id when
 * its `Follow` arrives (server/social/followers.ts, docs/social-web.md). Read-only: the owner
 * removes one with the document menu's Delete, or blocks the account or its whole instance
 * (studio/structure/followerActions.tsx). `liveEdit`: a private document has no draft.
 */
export const socialFollower = defineType({
  name: 'socialFollower',
  title: 'Follower',
  type: 'document',
  liveEdit: true,
  fields: [
    defineField({name: 'handle', title: 'Handle', type: 'string', readOnly: true}),
    defineField({name: 'name', title: 'Name', type: 'string', readOnly: true}),
    defineField({name: 'actor', title: 'Account', type: 'url', readOnly: true}),
    defineField({name: 'inbox', title: 'Inbox', type: 'url', readOnly: true}),
    defineField({name: 'sharedInbox', title: 'Shared inbox', type: 'url', readOnly: true}),
    defineField({name: 'followedAt', title: 'Followed at', type: 'datetime', readOnly: true}),
    defineField({
      name: 'lastError',
      title: 'Delivery given up (dead inbox)',
      description: 'The last delivery to this inbox failed after every retry.',
      type: 'string',
      readOnly: true,
    }),
  ],
  orderings: [
    {
      title: 'Followed, newest first',
      name: 'followedAtDesc',
      by: [{field: 'followedAt', direction: 'desc'}],
    },
  ],
  preview: {
    select: {handle: 'handle', name: 'name', actor: 'actor', lastError: 'lastError'},
    prepare({handle, name, actor, lastError}) {
      const title = [name, handle].filter((s) => typeof s === 'string' && s).join(' ')
      return {
        title: title || (typeof actor === 'string' ? actor : 'Unknown'),
        subtitle: typeof lastError === 'string' ? `Dead inbox: ${lastError}` : undefined,
      }
    },
  },
})
