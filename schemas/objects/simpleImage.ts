import {defineField} from 'sanity'
import {postImageOptions} from './postImage.ts'

/**
 * An image of the site's copy (portrait, share image, a testimonial's photo): the post's formats,
 * with alternative text, which the site falls back from (never fails on) when it is missing.
 */
export function simpleImageField(name: string, title: string) {
  return defineField({
    name,
    title,
    type: 'image',
    options: postImageOptions,
    fields: [
      defineField({
        name: 'alt',
        title: 'Alternative text',
        type: 'string',
        description: 'What the image shows, for readers who cannot see it.',
      }),
    ],
  })
}
