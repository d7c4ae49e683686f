import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {servicesPageQuery} from '../queries.ts'
import type {ServicesPageQueryResult} from '../../shared/sanity.types.ts'

/** The Services page's lists; without the lake, today's copy (logged, kept out of the cache). */
export async function servicesLoader({context}: LoaderFunctionArgs<RouterContextProvider>) {
  try {
    const client = await context.get(sanityClientContext)()
    return data({copy: await client.fetch(servicesPageQuery)})
  } catch (error) {
    console.error('[services] could not fetch the services', error)
    const copy: ServicesPageQueryResult | undefined = undefined
    return data({copy}, {headers: {'Cache-Control': 'no-store'}})
  }
}
