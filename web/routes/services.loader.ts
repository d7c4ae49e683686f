import {servicesPageQuery} from '../queries.ts'
import {copyLoader} from './copyLoader.ts'

/** The Services page's lists; without the lake, today's copy (logged, kept out of the cache). */
export const servicesLoader = copyLoader(
  {name: 'services', what: 'the services'},
  async (client) => ({copy: await client.fetch(servicesPageQuery)}),
  {copy: undefined},
)
