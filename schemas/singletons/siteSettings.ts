import {defineArrayMember, defineField, defineType} from 'sanity'
import {linkUrlField} from '../objects/linkUrl.ts'
import {simpleImageField} from '../objects/simpleImage.ts'
import {privacyNeedsReview, privacyReviewMessage} from '../privacyPromise.ts'

/** The handle the social web (ActivityPub) knows the owner by: lowercase, digits, `_`, 1–30. */
export const fediverseHandlePattern = /^[a-z0-9_]{1,30}$/

/**
 * The site's settings (a singleton, `_id` "siteSettings"): who the site is by, its default
 * description and share image, the footer's modals, links. The site falls back to today's copy
 * (web/content/) for any field left empty.
 */
export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  groups: [
    {name: 'identity', title: 'Identity', default: true},
    {name: 'footer', title: 'Footer'},
    {name: 'links', title: 'Links'},
  ],
  fields: [
    defineField({
      name: 'siteName',
      title: 'Site name',
      type: 'string',
      group: 'identity',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'ownerName',
      title: "Owner's name",
      description: 'Also the sender of the mails readers get (newsletter, confirmations).',
      type: 'string',
      group: 'identity',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'ownerTitle',
      title: "Owner's role",
      type: 'string',
      group: 'identity',
    }),
    defineField({name: 'place', title: 'Place', type: 'string', group: 'identity'}),
    {...simpleImageField('portrait', 'Portrait'), group: 'identity'},
    defineField({
      name: 'description',
      title: 'Default meta description',
      type: 'text',
      rows: 3,
      group: 'identity',
      validation: (rule) => rule.max(300),
    }),
    {...simpleImageField('shareImage', 'Default share image'), group: 'identity'},
    defineField({
      name: 'footerModals',
      title: "Footer's modals",
      type: 'object',
      group: 'footer',
      fields: [
        defineField({name: 'me', title: 'Me', type: 'footerModal'}),
        defineField({
          name: 'privacy',
          title: 'Privacy',
          type: 'footerModal',
          // A warning, not an error: the owner may publish, but is told (content/privacyUpgrade.ts).
          validation: (rule) =>
            rule
              .custom((value: {paragraphs?: unknown} | undefined) =>
                privacyNeedsReview(value?.paragraphs) ? privacyReviewMessage : true,
              )
              .warning(),
        }),
        defineField({name: 'client', title: 'Client', type: 'footerModal'}),
      ],
    }),
    defineField({
      name: 'socialLinks',
      title: 'Social and contact links',
      type: 'array',
      group: 'links',
      of: [defineArrayMember({type: 'socialLink'})],
    }),
    {
      ...linkUrlField('editingSamplesUrl', 'Editing samples link'),
      group: 'links',
      description: 'Empty: the address the server was started with (EDITING_SAMPLES_URL).',
    },
    defineField({
      // Read by the social web (ActivityPub) feature: the owner's account is @handle@site.
      name: 'fediverseHandle',
      title: 'Social web handle',
      type: 'string',
      group: 'links',
      initialValue: 'writer',
      validation: (rule) =>
        rule
          .required()
          .regex(fediverseHandlePattern, {name: 'handle'})
          .error('1–30 lowercase letters, digits or _'),
    }),
    defineField({
      // Read by the social web's inbox (server/social/replies.ts) at each new reply.
      name: 'autoApproveReplies',
      title: 'Auto-approve replies from accounts you approved',
      description:
        'On: a new reply from the social web is shown at once when you approved one of its author’s replies before (and hid none). Off: every reply waits for you in Comments.',
      type: 'boolean',
      group: 'links',
      initialValue: false,
    }),
  ],
  preview: {prepare: () => ({title: 'Site settings'})},
})
