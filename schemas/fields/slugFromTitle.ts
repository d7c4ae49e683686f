import {defineField} from 'sanity'

/**
 * A document's required `slug`, generated in the Studio from its `title`. The default slug
 * validator already checks uniqueness across documents of the type, so only `required` is added.
 */
export function slugFromTitle(maxLength: number, description?: string) {
  return defineField({
    name: 'slug',
    title: 'Slug',
    ...(description === undefined ? {} : {description}),
    type: 'slug',
    options: {source: 'title', maxLength},
    validation: (rule) => rule.required(),
  })
}
