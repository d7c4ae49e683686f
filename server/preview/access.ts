import {createHash} from 'node:crypto'
import {createClient, type SanityClient} from '@sanity/client'
import type {Context} from 'hono'
import {validatePreviewUrl} from '@sanity/preview-url-secret'
import {apiVersion} from '../../shared/constants.ts'
import type {AppContext} from '../context.ts'
import {setNewest} from '../util/boundedMap.ts'
import {FailedAttempts} from '../util/failedAttempts.ts'
import {previewSecretType, PreviewSessions} from '../lake/index.ts'
import {presentedPreviewToken} from '../http/previewCookie.ts'

/** Why an enable request was refused, as the owner is told it. */
export type EnableRefusal = 'invalid' | 'replayed' | 'unconfigured'

export type EnableResult =
  {token: string; redirectTo: string | undefined} | {refused: EnableRefusal}

/**
 * Who may preview and how their reads are made (docs/preview.md). Local mode: preview sessions
 * on the lake, which reads drafts for them itself. Hosted mode: preview sessions in this process,
 * and the site's server reads drafts from sanity.io with SANITY_API_READ_TOKEN.
 */
export interface PreviewAccess {
  /** Validates a Studio preview URL; `current` is the request's own preview token, if any. */
  enable(url: URL, current: string | undefined): Promise<EnableResult>
  /** The credential to read drafts with for a live preview token, else undefined. */
  credential(token: string): Record<string, string> | undefined
  /** Where preview reads go: the lake's internal origin, or the project's sanity.io API host. */
  upstream(): string
  end(token: string): void
  /** Wrong secrets per client, throttled like wrong tokens (server/util/failedAttempts.ts). */
  readonly attempts: FailedAttempts
}

/**
 * The request's live preview session: its token (for per-session caps) and the credential its
 * reads are made with; undefined when the request is not in preview (no cookie, not over HTTPS,
 * or a session that has ended).
 */
export function previewOf(
  c: Context,
  access: PreviewAccess,
): {token: string; credential: Record<string, string>} | undefined {
  const token = presentedPreviewToken(c)
  const credential = token ? access.credential(token) : undefined
  return token && credential ? {token, credential} : undefined
}

/** How long a used secret is remembered: the secrets themselves live an hour (SECRET_TTL). */
const usedSecretMs = 60 * 60_000
const maxUsedSecrets = 256
/** Validation is a query over loopback or to sanity.io: give up rather than hold the request. */
const validationTimeoutMs = 10_000

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex')

/**
 * Secrets already exchanged for a preview session. A secret is the Studio's, and may be replayed
 * only by the browser it already opened a preview for (the Presentation tool reloads its frame
 * with the same URL); anyone else who got hold of the URL is refused.
 */
class UsedSecrets {
  private readonly used = new Map<string, {expiresMs: number; parent: string | undefined}>()

  of(secret: string): {parent: string | undefined} | undefined {
    const key = digest(secret)
    const entry = this.used.get(key)
    if (!entry) return undefined
    if (entry.expiresMs > Date.now()) return entry
    this.used.delete(key)
    return undefined
  }

  add(secret: string, parent: string | undefined): void {
    setNewest(
      this.used,
      digest(secret),
      {expiresMs: Date.now() + usedSecretMs, parent},
      maxUsedSecrets,
    )
  }
}

/** The secret of a Studio preview URL, if it has one of sane size. */
function secretOf(url: URL): string | undefined {
  const secret = url.searchParams.get('sanity-preview-secret')
  return secret && secret.length <= 256 ? secret : undefined
}

/**
 * One enable flow for both modes: validate with @sanity/preview-url-secret, find who the secret
 * belongs to, refuse a replay by anyone but its own preview, open a session.
 */
async function enableWith(options: {
  url: URL
  current: string | undefined
  client: SanityClient
  sessions: PreviewSessions
  used: UsedSecrets
  /** The Studio session behind a valid secret, while it is live; undefined otherwise. */
  authorOf(secret: string): Promise<{parent: string | undefined} | undefined>
}): Promise<EnableResult> {
  const {url, current, sessions, used} = options
  const secret = secretOf(url)
  if (!secret) return {refused: 'invalid'}
  const validation = await validatePreviewUrl(options.client, url.href)
  if (!validation.isValid) return {refused: 'invalid'}
  const author = await options.authorOf(secret)
  if (!author) return {refused: 'invalid'}
  const redirectTo = validation.redirectTo
  const earlier = used.of(secret)
  if (earlier) {
    const own = current !== undefined && sessions.parentOf(current)
    if (own && own.parent === earlier.parent) return {token: current, redirectTo}
    return {refused: 'replayed'}
  }
  used.add(secret, author.parent)
  return {token: sessions.open(author.parent), redirectTo}
}

/** Local mode: the lake holds the sessions and reads drafts for a preview token itself. */
export function localPreviewAccess(ctx: AppContext): PreviewAccess {
  const lake = ctx.lake
  if (!lake) throw new Error('local preview access needs the lake')
  const used = new UsedSecrets()
  let client: SanityClient | undefined
  let clientOrigin = ''
  // The owner token over loopback, as validatePreviewUrl requires a token client; never leaves.
  const secretsClient = () => {
    const origin = ctx.internalOrigin()
    if (!client || origin !== clientOrigin) {
      clientOrigin = origin
      client = createClient({
        projectId: lake.projectId,
        dataset: lake.dataset,
        apiVersion,
        apiHost: origin,
        useProjectHostname: false,
        useCdn: false,
        token: lake.token,
        timeout: validationTimeoutMs,
      })
    }
    return client
  }
  return {
    attempts: lake.failedTokenAttempts(),
    enable: (url, current) =>
      enableWith({
        url,
        current,
        client: secretsClient(),
        sessions: lake.previewSessions(),
        used,
        async authorOf(secret) {
          const id = await lake.query<string | null>(
            '*[_type == $type && secret == $secret][0]._id',
            {type: previewSecretType, secret},
            {authenticated: true, perspective: 'raw', lane: 'trusted'},
          )
          return id ? lake.previewSessions().authorOfSecret(id) : undefined
        },
      }),
    credential(token) {
      const identity = lake.verifyToken(token)
      return identity?.preview ? {authorization: `Bearer ${token}`} : undefined
    },
    upstream: () => ctx.internalOrigin(),
    end: (token) => lake.previewSessions().end(token),
  }
}

/**
 * Hosted mode: sessions in this process (no Studio sessions to tie them to: a preview ends after
 * its own lifetime or at Exit), drafts read from sanity.io with the read token.
 */
export function hostedPreviewAccess(config: {
  projectId: string
  dataset: string
  readToken: string | undefined
}): PreviewAccess {
  const sessions = new PreviewSessions(() => true)
  const used = new UsedSecrets()
  const readToken = config.readToken
  const client = readToken
    ? createClient({
        projectId: config.projectId,
        dataset: config.dataset,
        apiVersion,
        useCdn: false,
        token: readToken,
        timeout: validationTimeoutMs,
      })
    : undefined
  return {
    attempts: new FailedAttempts(),
    enable: async (url, current) =>
      client
        ? enableWith({
            url,
            current,
            client,
            sessions,
            used,
            authorOf: () => Promise.resolve({parent: undefined}),
          })
        : {refused: 'unconfigured'},
    credential(token) {
      const identity = sessions.check(token)
      if (!readToken || identity === undefined || identity === 'ended') return undefined
      return {authorization: `Bearer ${readToken}`}
    },
    upstream: () => `https://${config.projectId}.api.sanity.io`,
    end: (token) => sessions.end(token),
  }
}
