import {defineField, defineType} from 'sanity'

/** Home's words and which of its sections show (a singleton, `_id` "homePage"). */
export const homePage = defineType({
  name: 'homePage',
  title: 'Home',
  type: 'document',
  fields: [
    defineField({
      name: 'intro',
      title: 'Intro',
      type: 'text',
      rows: 4,
      validation: (rule) => rule.required(),
    }),
    defineField({name: 'blogButton', title: "Blog button's text", type: 'string'}),
    defineField({name: 'latestHeading', title: "'Latest writing' heading", type: 'string'}),
    defineField({
      name: 'showLatest',
      title: 'Show the latest writing',
      type: 'boolean',
      initialValue: true,
    }),
    defineField({name: 'voicesHeading', title: "Testimonials' heading", type: 'string'}),
    defineField({
      name: 'showVoices',
      title: 'Show testimonials',
      type: 'boolean',
      initialValue: true,
    }),
    defineField({
      name: 'showSubscribe',
      title: 'Show the subscribe form',
      type: 'boolean',
      initialValue: true,
    }),
  ],
  preview: {prepare: () => ({title: 'Home'})},
})
