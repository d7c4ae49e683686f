import type {Context} from 'hono'
import {bearerToken} from '../auth.ts'
import type {Lake} from '../lake.ts'
import {authOf} from '../lake.ts'
import {clientOf} from '../../http/clientAddress.ts'
import {requestHeader} from '../../http/requestHeader.ts'
import {tooManyGuesses} from '../http/request.ts'

/** The API's version prefix (dataApi.ts checks it in full); other paths are the site's. */
const apiVersion = /^v(\d{4}-\d{2}-\d{2}|1|X)$/

/**
 * Before any lake route reads a bearer token (`identify`, http.ts, which is synchronous): a
 * client over its failed-token limit is held to its pace (Auth.paced). A right token passes at
 * once, a wrong one a second late, and past its few waiting guesses a token is refused here
 * uncompared. Without it a throttled client compared 729 guesses a second and got a 200 for the
 * right one (security review 3, L3).
 */
export function paceThrottledTokens(lake: Lake) {
  return async (c: Context, next: () => Promise<void>): Promise<void> => {
    // Node's parsed header: this runs before every page too (`/:version/*` matches `/blog`).
    const token = bearerToken(requestHeader(c, 'authorization'))
    if (token === undefined || !apiVersion.test(c.req.param('version') ?? '')) return next()
    const client = clientOf(c).key
    const auth = authOf(lake)
    if (await auth.paced(client, () => auth.verify(token, {touch: false}) !== undefined))
      return next()
    throw tooManyGuesses(c, client, auth.throttledVerdict(client).retryAfterSeconds)
  }
}
