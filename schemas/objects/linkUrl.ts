import {defineField} from 'sanity'

/** The schemes a link of the site's copy may use: never `javascript:` or `data:`. */
export const linkSchemes = ['http', 'https', 'mailto']

/**
 * A link's address as the site may print it: http(s) or mailto only, so no script URL reaches a
 * page (web/components/safeHref.ts guards the render too).
 */
export function linkUrlField(name: string, title: string, required = false) {
  return defineField({
    name,
    title,
    type: 'url',
    validation: (rule) =>
      required ? rule.required().uri({scheme: linkSchemes}) : rule.uri({scheme: linkSchemes}),
  })
}
