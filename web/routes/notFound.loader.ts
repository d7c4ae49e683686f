import {data, type LoaderFunctionArgs, type RouterContextProvider} from 'react-router-dom'
import {sanityClientContext} from '../clientContext.ts'
import {redirectFor} from './redirectFor.ts'

/**
 * Any unknown address: a redirect the owner made from it (Studio, Redirects), else HTTP 404 (the
 * page itself renders in the site layout). A lake that cannot answer leaves the 404, uncached.
 */
export async function notFoundLoader({
  request,
  context,
}: LoaderFunctionArgs<RouterContextProvider>) {
  const url = new URL(request.url)
  try {
    const client = await context.get(sanityClientContext)()
    const moved = await redirectFor(client, `${url.pathname}${url.search}`)
    if (moved) return moved
  } catch (error) {
    console.error(`[not found] could not look up a redirect for ${url.pathname}`, error)
    return data(null, {status: 404, headers: {'Cache-Control': 'no-store'}})
  }
  return data(null, {status: 404})
}
