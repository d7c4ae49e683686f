import type {SanityClient} from '@sanity/client'
import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'

/**
 * A page's loader that reads what the page shows with `read`. A page must not fail with the lake:
 * when the lake cannot answer, the page gets `fallback` (it then shows today's copy, web/copy/),
 * the error is logged as `[name] could not fetch what`, and the answer is kept out of the cache
 * so that the next request asks the lake again.
 */
export function copyLoader<Read, Fallback>(
  log: {name: string; what: string},
  read: (client: SanityClient) => Promise<Read>,
  fallback: Fallback,
) {
  return async ({context}: LoaderFunctionArgs<RouterContextProvider>) => {
    try {
      const client = await context.get(sanityClientContext)()
      return data(await read(client))
    } catch (error) {
      console.error(`[${log.name}] could not fetch ${log.what}`, error)
      return data(fallback, {headers: {'Cache-Control': 'no-store'}})
    }
  }
}
