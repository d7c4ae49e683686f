import {createClient, type SanityClient} from '@sanity/client'
import {startTestServer} from './server.ts'
import type {Lake} from '../../server/lake/index.ts'
import {apiVersion, defaultDataset, localProjectId} from '../../shared/constants.ts'

/** The API version the site speaks; tests of other versions pass their own. */
export {apiVersion}

export interface LakeUnderTest {
  url: string
  token: string
  lake: Lake
  /** Owner client (token, no CDN). */
  owner: SanityClient
  /** Anonymous client, as the public site builds it (CDN on, no token). */
  anon: SanityClient
  /** A client for another API version or token, same server. */
  client(options?: {apiVersion?: string; token?: string; useCdn?: boolean}): SanityClient
  /** Raw HTTP against the server, for inputs @sanity/client would refuse to send. */
  fetch(path: string, init?: RequestInit & {token?: string}): Promise<Response>
  stop(): Promise<void>
}

/**
 * Starts the real server (empty lake, free loopback port) and builds @sanity/client instances
 * exactly as the site and the Studio do: `apiHost` = our origin, `useProjectHostname: false`.
 */
export async function startLakeUnderTest(): Promise<LakeUnderTest> {
  const server = await startTestServer({SEED: '0'})
  const lake = server.lake
  if (!lake) throw new Error('the test server has no local lake')
  const client: LakeUnderTest['client'] = (options = {}) =>
    createClient({
      projectId: localProjectId,
      dataset: defaultDataset,
      apiVersion: options.apiVersion ?? apiVersion,
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: options.useCdn ?? false,
      token: options.token,
    })
  return {
    url: server.url,
    token: lake.token,
    lake,
    owner: client({token: lake.token}),
    anon: client({useCdn: true}),
    client,
    fetch(path, init = {}) {
      const {token, ...rest} = init
      const headers = new Headers(rest.headers)
      if (token) headers.set('authorization', `Bearer ${token}`)
      return fetch(`${server.url}${path}`, {...rest, headers})
    },
    stop: () => server.stop(),
  }
}
