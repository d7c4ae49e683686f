import {defineField, defineType} from 'sanity'

/**
 * A blog category: its tab on /blog (`?category=<slug>`), in `order`. Posts reference it
 * strongly, so the lake refuses to delete a category a published post still names.
 */
export const category = defineType({
  name: 'category',
  title: 'Category',
  type: 'document',
  fields: [
    defineField({
      name: 'title',
      title: 'Title',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'slug',
      title: 'Slug',
      description: "The tab's address: /blog?category=<slug>.",
      type: 'slug',
      options: {source: 'title', maxLength: 60},
      // The default slug validator checks uniqueness across categories.
      validation: (rule) => rule.required(),
    }),
    defineField({name: 'description', title: 'Description', type: 'text', rows: 2}),
    defineField({
      name: 'order',
      title: 'Order',
      description: 'Tabs are shown by this number, smallest first.',
      type: 'number',
      validation: (rule) => rule.integer(),
    }),
  ],
  orderings: [{title: 'Tab order', name: 'order', by: [{field: 'order', direction: 'asc'}]}],
  preview: {select: {title: 'title', subtitle: 'slug.current'}},
})
