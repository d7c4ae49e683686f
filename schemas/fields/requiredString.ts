import {defineField} from 'sanity'

/**
 * A one-line text the editor must fill in (a title, a name, a link's label): the Studio marks it
 * required and will not publish without it. One definition so every such field of the schemas
 * reads and validates alike.
 */
export function requiredString(name: string, title: string) {
  return defineField({
    name,
    title,
    type: 'string',
    validation: (rule) => rule.required(),
  })
}
