import {defineField, defineType, type ValidationContext} from 'sanity'
import {apiVersion} from '../../shared/constants.ts'
import {
  isExternalTarget,
  isSitePath,
  redirectConflict,
  type RedirectRule,
} from '../redirectRules.ts'

/** The other redirects, published or drafts, to refuse loops and chains before publishing. */
async function conflict(context: ValidationContext): Promise<true | string> {
  const doc = context.document
  if (!doc) return true
  const id = doc._id.replace(/^drafts\./, '')
  const others = await context
    .getClient({apiVersion})
    .fetch<RedirectRule[]>(`*[_type == "redirect" && !(_id in [$id, $draft])]{_id, from, to}`, {
      id,
      draft: `drafts.${id}`,
    })
  const rule = {from: String(doc.from ?? ''), to: String(doc.to ?? '')}
  return redirectConflict(rule, others) ?? true
}

/**
 * A redirect the site answers: `from` (a path of this site) → `to`, 301 or 302. The site makes
 * one itself when a published post's or category's slug changes (`automatic`).
 */
export const redirect = defineType({
  name: 'redirect',
  title: 'Redirect',
  type: 'document',
  fields: [
    defineField({
      name: 'from',
      title: 'From path',
      description: 'A path of this site, starting with /, e.g. /blog/old-title',
      type: 'string',
      validation: (rule) =>
        rule
          .required()
          .custom((value) =>
            value === undefined || isSitePath(value) ? true : 'Start with one /',
          ),
    }),
    defineField({
      name: 'external',
      title: 'Points to another site',
      type: 'boolean',
      initialValue: false,
    }),
    defineField({
      name: 'to',
      title: 'To',
      description: 'A path of this site, or an https address when "Points to another site" is on.',
      type: 'string',
      validation: (rule) =>
        rule.required().custom(async (value, context) => {
          if (value === undefined) return true
          const external = context.document?.external === true
          if (external ? !isExternalTarget(value) : !isSitePath(value))
            return external ? 'An https:// address' : 'A path of this site, starting with one /'
          return conflict(context)
        }),
    }),
    defineField({
      name: 'permanent',
      title: 'Permanent (301)',
      description: 'Off: temporary (302).',
      type: 'boolean',
      initialValue: true,
    }),
    defineField({
      name: 'automatic',
      title: 'Made by the site when a slug changed',
      type: 'boolean',
      readOnly: true,
      hidden: ({value}) => value !== true,
    }),
  ],
  preview: {
    select: {from: 'from', to: 'to', permanent: 'permanent'},
    prepare: ({from, to, permanent}) => ({
      title: `${String(from)} → ${String(to)}`,
      subtitle: permanent === false ? '302' : '301',
    }),
  },
})
