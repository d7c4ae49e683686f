import {defineField, defineType} from 'sanity'
import {linkUrlField} from './linkUrl.ts'

/** A social or contact link of the site settings. */
export const socialLink = defineType({
  name: 'socialLink',
  title: 'Link',
  type: 'object',
  fields: [
    defineField({
      name: 'label',
      title: 'Label',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    linkUrlField('url', 'Address', true),
  ],
})
