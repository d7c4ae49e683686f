import type {SanityClient} from '@sanity/client'
import {RouterContextProvider} from 'react-router-dom'
import {describe, expect, it, vi} from 'vitest'
import {sanityClientContext} from '../clientContext.ts'
import {copyLoader} from './copyLoader.ts'

/** What the router hands a loader, with a client that answers `fetch` with `answer`. */
function argsWith(answer: () => Promise<unknown>) {
  const context = new RouterContextProvider()
  const client = {fetch: answer} as unknown as SanityClient
  context.set(sanityClientContext, async () => client)
  const url = new URL('http://site.test/service')
  return {context, request: new Request(url), url, params: {}, pattern: '/service'}
}

const loader = copyLoader(
  {name: 'services', what: 'the services'},
  async (client) => ({copy: await client.fetch<string>('*[_type == "servicesPage"][0]')}),
  {copy: undefined},
)

describe('copyLoader', () => {
  it('gives the page what the lake answered, cacheable', async () => {
    const answer = await loader(argsWith(async () => 'from the lake'))
    expect(answer.data).toEqual({copy: 'from the lake'})
    expect(answer.init?.headers).toBeUndefined()
  })

  it('without the lake, gives the fallback, logs why and keeps the page out of the cache', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const answer = await loader(argsWith(() => Promise.reject(new Error('lake down'))))
    expect(answer.data).toEqual({copy: undefined})
    expect(answer.init?.headers).toEqual({'Cache-Control': 'no-store'})
    expect(logged).toHaveBeenCalledWith(
      '[services] could not fetch the services',
      expect.any(Error),
    )
    logged.mockRestore()
  })
})
