import {testimonialsPageQuery} from '../queries.ts'
import {copyLoader} from './copyLoader.ts'

/** The testimonials and edited books; without the lake, today's (logged, kept out of the cache). */
export const testimonialsLoader = copyLoader(
  {name: 'testimonials', what: 'the testimonials'},
  async (client) => ({copy: await client.fetch(testimonialsPageQuery)}),
  {copy: undefined},
)
