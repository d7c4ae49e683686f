import {defineArrayMember, defineField, defineType} from 'sanity'
import {requiredString} from '../fields/requiredString.ts'

/** One of the footer's three modals ("me", "privacy", "client"): its link, title and text. */
export const footerModal = defineType({
  name: 'footerModal',
  title: 'Footer modal',
  type: 'object',
  fields: [
    requiredString('label', 'Link text'),
    requiredString('title', 'Title'),
    defineField({
      name: 'paragraphs',
      title: 'Paragraphs',
      type: 'array',
      of: [defineArrayMember({type: 'text', rows: 3})],
      validation: (rule) => rule.required().min(1),
    }),
  ],
})
