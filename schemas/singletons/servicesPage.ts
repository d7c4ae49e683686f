import {defineArrayMember, defineField, defineType} from 'sanity'
import {requiredString} from '../fields/requiredString.ts'

/** A list of lines, ordered by drag and drop in the Studio. */
function lines(name: string, title: string) {
  return defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({type: 'string'})],
    validation: (rule) => rule.unique(),
  })
}

/**
 * The Services page (a singleton, `_id` "servicesPage"): the services, how the owner works, the
 * blog's sample links, and the edited book titles the Testimonials page shows.
 */
export const servicesPage = defineType({
  name: 'servicesPage',
  title: 'Services',
  type: 'document',
  fields: [
    lines('writingServices', 'Writing services'),
    lines('editingServices', 'Editing services'),
    lines('howIWork', 'How I work'),
    defineField({
      name: 'blogSamples',
      title: 'Blog samples',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'blogSample',
          fields: [
            requiredString('label', 'Label'),
            defineField({
              name: 'category',
              title: 'Category',
              type: 'reference',
              to: [{type: 'category'}],
              validation: (rule) => rule.required(),
            }),
          ],
        }),
      ],
    }),
    lines('editedBooks', 'Edited books (Testimonials page)'),
  ],
  preview: {prepare: () => ({title: 'Services'})},
})
