import {defineArrayMember, defineField, defineType} from 'sanity'

/** One of the footer's three modals ("me", "privacy", "client"): its link, title and text. */
export const footerModal = defineType({
  name: 'footerModal',
  title: 'Footer modal',
  type: 'object',
  fields: [
    defineField({
      name: 'label',
      title: 'Link text',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'title',
      title: 'Title',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'paragraphs',
      title: 'Paragraphs',
      type: 'array',
      of: [defineArrayMember({type: 'text', rows: 3})],
      validation: (rule) => rule.required().min(1),
    }),
  ],
})
