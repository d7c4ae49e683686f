import type {Context, Hono} from 'hono'
import {clientOf} from '../../http/clientAddress.ts'
import {publicOrigin} from '../../http/publicOrigin.ts'
import {BodyTooLargeError, logTooLarge, withBoundedBody} from '../../http/body.ts'
import {refusals, safe} from '../../http/log.ts'
import {studioLoginPath as loginPath} from '../../../shared/constants.ts'
import {bearerToken} from '../auth.ts'
import {unauthorized} from '../errors.ts'
import {identify} from '../http/request.ts'
import type {Lake} from '../lake.ts'
import {loginPage, loginPageHeaders} from './loginPage.ts'
import {SidStore} from './loginSids.ts'
import {authOf} from '../lake.ts'

type LoginConfig = {isStudioUrl(url: string): boolean}

/** An origin URL and a password: 16 KiB is far above any real login form. */
const maxLoginBodyBytes = 16 * 1024

const foreignOriginMessage =
  'This login link does not come from this Studio. Open the Studio and log in from there.'

/** The login page, with an error above the form when there is one. */
function pageAnswer(
  c: Context,
  origin: string,
  status: 200 | 400 | 401 | 429,
  error?: string,
  headers: Record<string, string> = {},
): Response {
  return c.body(loginPage({action: loginPath, origin, error}), status, {
    ...loginPageHeaders,
    ...headers,
  })
}

/** A login page asked to return somewhere else than this Studio: logged, and a 400. */
function foreignOrigin(c: Context, origin: string, what: string): Response {
  const client = clientOf(c).key
  refusals.refuse(
    client,
    'login-origin',
    `[studio] ${what.replace('{client}', client)}: ${safe(origin || '(none)')}`,
  )
  return pageAnswer(c, '', 400, foreignOriginMessage)
}

/** The login form's fields; a body that is not a form has none (and is refused as foreign). */
async function loginFields(c: Context): Promise<{origin: string; password: string} | Response> {
  let form: FormData
  try {
    form = await (await withBoundedBody(c.req.raw, maxLoginBodyBytes)).formData()
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      logTooLarge(clientOf(c).key, c.req.method, c.req.path, maxLoginBodyBytes)
      return c.text('Request too large', 413)
    }
    form = new FormData()
  }
  const originField = form.get('origin')
  const passwordField = form.get('password')
  return {
    origin: typeof originField === 'string' ? originField : '',
    password: typeof passwordField === 'string' ? passwordField : '',
  }
}

/** The form's post: the owner token as password, paced per client, then a one-time sid. */
function loginPostHandler(lake: Lake, config: LoginConfig, sids: SidStore) {
  return async (c: Context) => {
    const fields = await loginFields(c)
    if (fields instanceof Response) return fields
    const {origin, password} = fields
    const client = clientOf(c).key
    if (!config.isStudioUrl(origin))
      return foreignOrigin(c, origin, 'login by {client} refused: foreign return address')
    // Wrong passwords count with wrong bearer tokens, per client (server/util/failedAttempts.ts).
    // A throttled client's password is checked at its pace (Auth.paced), or not at all.
    const auth = authOf(lake)
    const verdict = (await auth.paced(client, () => password !== '' && auth.isOwnerToken(password)))
      ? auth.authenticateOwner(password, client)
      : auth.throttledVerdict(client)
    if (!verdict.ok && verdict.throttled) {
      refusals.refuse(client, 'login-throttled', `[studio] login throttled for ${client}`)
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60)
      return pageAnswer(
        c,
        origin,
        429,
        `Too many wrong passwords. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        {'retry-after': String(verdict.retryAfterSeconds)},
      )
    }
    if (!verdict.ok) {
      refusals.refuse(
        client,
        'login-failed',
        `[studio] login failed: wrong password from ${client}`,
      )
      return pageAnswer(c, origin, 401, 'Wrong password.')
    }
    const url = new URL(origin)
    url.hash = `sid=${sids.issue()}`
    return c.redirect(url.toString(), 303)
  }
}

/**
 * The Studio's login flow for the local lake (docs/studio-protocol.md §c): provider → our login page →
 * 303 to `<studio url>#sid=…` → GET /auth/fetch?sid= → `{token}` (a fresh session) → POST
 * /auth/logout revokes it. The password is the owner token.
 */
export function registerLogin(app: Hono, lake: Lake, config: LoginConfig): void {
  const sids = new SidStore()

  app.get('/:version/auth/providers', (c) => {
    // Behind a TLS proxy the request arrived as http://; the browser is on https://.
    const origin = publicOrigin(c)
    return c.json({
      thirdPartyLogin: false,
      sso: {},
      providers: [{name: 'local', title: 'Owner password', url: `${origin}${loginPath}`}],
    })
  })

  app.get(loginPath, (c) => {
    const origin = c.req.query('origin') ?? ''
    if (!config.isStudioUrl(origin))
      return foreignOrigin(c, origin, 'login page asked by {client} to return to a foreign address')
    return pageAnswer(c, origin, 200)
  })

  app.post(loginPath, loginPostHandler(lake, config, sids))

  app.get('/:version/auth/fetch', (c) => {
    const sid = c.req.query('sid') ?? ''
    if (!sids.redeem(sid))
      throw unauthorized('Login session id is invalid, used or expired; log in again')
    return c.json({token: authOf(lake).createSession()}, 200, {'cache-control': 'no-store'})
  })

  app.get('/:version/auth/id', (c) => {
    const identity = identify(c, lake)
    if (!identity) throw unauthorized()
    return c.json({id: identity.userId})
  })

  app.post('/:version/auth/logout', (c) => {
    const token = bearerToken(c.req.header('authorization'))
    // The owner token itself cannot be revoked (it is configuration); sessions can. Compared in
    // constant time: the answer must not tell how much of a guess matched the owner token.
    if (token && !authOf(lake).isOwnerToken(token)) authOf(lake).revokeSession(token)
    return c.json({})
  })
}
