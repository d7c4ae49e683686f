import {defineField, defineType} from 'sanity'

/**
 * A block on the social web (`socialBlock.<hash>`, private), made by the owner's Block actions
 * on a follower (studio/structure/followerActions.tsx → POST /api/social/blocks): a whole instance
 * (a host) or one account (its URL). Read-only; the document menu's Delete lifts it.
 */
export const socialBlock = defineType({
  name: 'socialBlock',
  title: 'Block',
  type: 'document',
  liveEdit: true,
  fields: [
    defineField({name: 'target', title: 'Instance or account', type: 'string', readOnly: true}),
    defineField({name: 'blockedAt', title: 'Blocked at', type: 'datetime', readOnly: true}),
  ],
  preview: {
    select: {target: 'target', blockedAt: 'blockedAt'},
    prepare({target, blockedAt}) {
      const what = typeof target === 'string' ? target : 'Unknown'
      return {
        title: what,
        subtitle: [
          what.includes('/') ? 'Account' : 'Whole instance',
          typeof blockedAt === 'string' ? new Date(blockedAt).toLocaleDateString() : '',
        ]
          .filter(Boolean)
          .join(' · '),
      }
    },
  },
})
