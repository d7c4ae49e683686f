import {defineField} from 'sanity'

/**
 * The whole number a list is sorted by, smallest first (the blog's tabs, the testimonials): the
 * site's queries order by it, so a fraction is refused.
 */
export function orderField(description?: string) {
  return defineField({
    name: 'order',
    title: 'Order',
    ...(description === undefined ? {} : {description}),
    type: 'number',
    validation: (rule) => rule.integer(),
  })
}
