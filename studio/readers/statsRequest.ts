import {useCallback} from 'react'
import {useClient} from 'sanity'
import {apiVersion} from '../../shared/constants.ts'

/**
 * How the Readers tool asks the server for a table: the stats routes accept the owner token or
 * a Studio session as a bearer token only (server/http/ownerBearer.ts), never a cookie. The
 * Studio's own client holds that session (local login, studio/env.ts), and its `apiHost` is the
 * server's origin, also when the Studio is served from an origin of its own.
 */
export function useStatsRequest(): (path: string, signal?: AbortSignal) => Promise<Response> {
  const {apiHost, token} = useClient({apiVersion}).config()
  return useCallback(
    async (path, signal) => {
      const response = await fetch(`${apiHost}/api/stats/${path}`, {
        headers: token ? {authorization: `Bearer ${token}`} : {},
        cache: 'no-store',
        signal,
      })
      if (!response.ok) throw new Error(`Reader statistics: ${response.status} for ${path}`)
      return response
    },
    [apiHost, token],
  )
}
