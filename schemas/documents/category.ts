import {defineField, defineType} from 'sanity'
import {orderField} from '../fields/orderField.ts'
import {requiredString} from '../fields/requiredString.ts'
import {slugFromTitle} from '../fields/slugFromTitle.ts'

/**
 * A blog category: its tab on /blog (`?category=<slug>`), in `order`. Posts reference it
 * strongly, so the lake refuses to delete a category a published post still names.
 */
export const category = defineType({
  name: 'category',
  title: 'Category',
  type: 'document',
  fields: [
    requiredString('title', 'Title'),
    slugFromTitle(60, "The tab's address: /blog?category=<slug>."),
    defineField({name: 'description', title: 'Description', type: 'text', rows: 2}),
    orderField('Tabs are shown by this number, smallest first.'),
  ],
  orderings: [{title: 'Tab order', name: 'order', by: [{field: 'order', direction: 'asc'}]}],
  preview: {select: {title: 'title', subtitle: 'slug.current'}},
})
