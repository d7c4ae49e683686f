import {defineField, defineType} from 'sanity'
import {orderField} from '../fields/orderField.ts'
import {requiredString} from '../fields/requiredString.ts'
import {simpleImageField} from '../objects/simpleImage.ts'

/** A client's testimonial: the Testimonials page shows them all by `order`, Home the first two. */
export const testimonial = defineType({
  name: 'testimonial',
  title: 'Testimonial',
  type: 'document',
  fields: [
    defineField({
      name: 'quote',
      title: 'Quote',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required(),
    }),
    requiredString('name', 'Name'),
    defineField({name: 'role', title: 'Role', type: 'string'}),
    simpleImageField('photo', 'Photo'),
    orderField(),
  ],
  orderings: [{title: 'Order', name: 'order', by: [{field: 'order', direction: 'asc'}]}],
  preview: {select: {title: 'name', subtitle: 'role', media: 'photo'}},
})
