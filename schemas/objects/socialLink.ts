import {defineType} from 'sanity'
import {requiredString} from '../fields/requiredString.ts'
import {linkUrlField} from './linkUrl.ts'

/** A social or contact link of the site settings. */
export const socialLink = defineType({
  name: 'socialLink',
  title: 'Link',
  type: 'object',
  fields: [requiredString('label', 'Label'), linkUrlField('url', 'Address', true)],
})
