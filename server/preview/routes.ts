import type {Context, Hono} from 'hono'
import {retryWording} from '../http/formRefusal.ts'
import {clientOf} from '../http/clientAddress.ts'
import {refusals, safe} from '../http/log.ts'
import {
  clearedPreviewCookie,
  presentedPreviewToken,
  previewCookie,
  sameSitePath,
} from '../http/previewCookie.ts'
import {previewDisablePath, previewEnablePath} from '../../shared/constants.ts'
import {ClientCounter} from '../lake/index.ts'
import type {EnableRefusal, PreviewAccess} from './access.ts'

/** Preview links checked at once per client: the Studio opens one frame. */
const maxChecksPerClient = 2

const refusalText: Record<EnableRefusal, string> = {
  invalid:
    'This preview link is not valid: it is wrong, has expired, or its Studio session has ended. ' +
    'Open the preview from the Studio again.',
  replayed:
    'This preview link has already been used in another browser. Open the preview from the Studio.',
  unconfigured:
    'Preview is not set up on this server: SANITY_API_READ_TOKEN is missing (docs/hosted.md).',
}

/** Plain answers for a browser (the Studio's frame shows them), never stored anywhere. */
function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      // The address carries the secret: no other site may learn it from a Referer.
      'referrer-policy': 'no-referrer',
      ...headers,
    },
  })
}

function redirect(location: string, cookie: string): Response {
  return new Response(null, {
    status: 303,
    headers: {
      location,
      'set-cookie': cookie,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  })
}

/**
 * GET /api/preview/enable: the Presentation tool's frame opens it with the secret the Studio
 * has just written; a valid one sets the preview cookie and redirects to the page asked for.
 * GET /api/preview/disable: ends the preview and redirects to `?redirect=` (a path on this site).
 */
export function registerPreviewRoutes(app: Hono, access: PreviewAccess): void {
  // Each check is a query in the owner's lane: a burst from one client must not queue many of
  // them before its bad secrets are counted.
  const checking = new ClientCounter()
  app.get(previewEnablePath, async (c: Context) => {
    const client = clientOf(c).key
    const what = `${c.req.method} ${safe(c.req.path)} from ${client}`
    if (!clientOf(c).secure) {
      refusals.refuse(client, 'preview-insecure', `[preview] 403 ${what}: not over HTTPS`)
      return text(403, 'Preview works over HTTPS only: open the Studio at its https:// address.')
    }
    const wait = access.attempts.retryAfterMs(client)
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000)
      refusals.refuse(client, 'preview-throttled', `[preview] 429 ${what}: too many bad secrets`)
      return text(429, `Too many invalid preview links. ${retryWording(seconds)}`, {
        'retry-after': String(seconds),
      })
    }
    const release = checking.acquire(client, maxChecksPerClient)
    if (!release) {
      refusals.refuse(client, 'preview-cap', `[preview] 429 ${what}: checks in flight`)
      return text(429, 'A preview link is already being checked; try again.', {'retry-after': '1'})
    }
    let result
    try {
      result = await access.enable(new URL(c.req.url), presentedPreviewToken(c))
    } catch (error) {
      console.error(`[preview] validating a preview link failed (${what})`, error)
      return text(503, 'The preview could not be checked just now; reload to try again.')
    } finally {
      release()
    }
    if ('refused' in result) {
      if (result.refused !== 'unconfigured') access.attempts.fail(client)
      refusals.refuse(client, 'preview-refused', `[preview] ${what}: ${result.refused} secret`)
      return text(result.refused === 'unconfigured' ? 503 : 401, refusalText[result.refused])
    }
    return redirect(sameSitePath(result.redirectTo) ?? '/', previewCookie(result.token))
  })

  app.get(previewDisablePath, (c) => {
    const token = presentedPreviewToken(c)
    if (token) access.end(token)
    return redirect(sameSitePath(c.req.query('redirect')) ?? '/', clearedPreviewCookie)
  })
}
