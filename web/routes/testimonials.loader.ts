import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {testimonialsPageQuery} from '../queries.ts'
import type {TestimonialsPageQueryResult} from '../../shared/sanity.types.ts'

/** The testimonials and edited books; without the lake, today's (logged, kept out of the cache). */
export async function testimonialsLoader({context}: LoaderFunctionArgs<RouterContextProvider>) {
  try {
    const client = await context.get(sanityClientContext)()
    return data({copy: await client.fetch(testimonialsPageQuery)})
  } catch (error) {
    console.error('[testimonials] could not fetch the testimonials', error)
    const copy: TestimonialsPageQueryResult | undefined = undefined
    return data({copy}, {headers: {'Cache-Control': 'no-store'}})
  }
}
