import {defineArrayMember, defineField, defineType} from 'sanity'
import {postImageFields, postImageOptions} from './postImage.ts'

/** Hrefs a reader may follow: the rich-text renderer drops anything else (e.g. `javascript:`). */
export const allowedLinkSchemes = ['http', 'https', 'mailto']

/**
 * Rich text with exactly the spec's blocks and marks: paragraphs, h1–h6, blockquote,
 * bullet and number lists; strong, em, code, underline, strike-through and links; and images
 * (issue 22) with alternative text and an optional caption.
 */
export const blockContent = defineType({
  name: 'blockContent',
  title: 'Body',
  type: 'array',
  of: [
    defineArrayMember({
      type: 'block',
      styles: [
        {title: 'Normal', value: 'normal'},
        {title: 'Heading 1', value: 'h1'},
        {title: 'Heading 2', value: 'h2'},
        {title: 'Heading 3', value: 'h3'},
        {title: 'Heading 4', value: 'h4'},
        {title: 'Heading 5', value: 'h5'},
        {title: 'Heading 6', value: 'h6'},
        {title: 'Quote', value: 'blockquote'},
      ],
      lists: [
        {title: 'Bullet', value: 'bullet'},
        {title: 'Numbered', value: 'number'},
      ],
      marks: {
        decorators: [
          {title: 'Strong', value: 'strong'},
          {title: 'Emphasis', value: 'em'},
          {title: 'Code', value: 'code'},
          {title: 'Underline', value: 'underline'},
          {title: 'Strike', value: 'strike-through'},
        ],
        annotations: [
          defineArrayMember({
            name: 'link',
            title: 'Link',
            type: 'object',
            fields: [
              defineField({
                name: 'href',
                title: 'URL',
                type: 'url',
                validation: (rule) => rule.required().uri({scheme: allowedLinkSchemes}),
              }),
            ],
          }),
        ],
      },
    }),
    defineArrayMember({
      type: 'image',
      title: 'Image',
      options: postImageOptions,
      fields: postImageFields,
    }),
  ],
})
