import {createHash} from 'node:crypto'
import type {Context, Hono} from 'hono'
import {BodyTooLargeError, readBody} from '../http/body.ts'
import {clientOf} from '../http/clientAddress.ts'
import {HttpError} from '../http/httpError.ts'
import {ownerOrWait} from '../http/ownerBearer.ts'
import type {FailedAttempts} from '../util/failedAttempts.ts'
import type {SocialContent} from './socialContent.ts'
import {isRecord} from '../util/isRecord.ts'
import type {RateLimiter} from '../util/rateLimit.ts'
import {blockIdPrefix} from './blocks.ts'
import type {Followers} from './followers.ts'

export const blocksPath = '/api/social/blocks'

/** A block's body is one short JSON object. */
const maxBodyBytes = 4096
/** Blocks are held in memory by every request of the inbox (blocks.ts): a bound on them. */
const maxBlocks = 5000

const author = 'social'
const hostPattern =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/

export const blockIdOf = (target: string) =>
  `${blockIdPrefix}${createHash('sha256').update(target).digest('hex').slice(0, 32)}`

/** A whole instance (`mastodon.example`, a port allowed) or one account (its actor's http(s) URL). */
function blockTarget(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048)
    throw new HttpError(400, 'target must be a host name or an account URL.')
  if (raw.includes('/')) {
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new HttpError(400, 'target is not a valid account URL.')
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new HttpError(400, 'An account URL is http(s).')
    return url.href
  }
  const host = raw.toLowerCase()
  if (!hostPattern.test(host)) throw new HttpError(400, 'target is not a valid host name.')
  return host
}

/**
 * Whose bearer tokens are the owner's: the local lake's owner token and Studio sessions, or in
 * hosted mode the write token (contentFor.ts); `attempts` counts wrong ones per client.
 */
export interface OwnerCheck {
  verify: (token: string | undefined) => {preview?: true} | undefined
  attempts: FailedAttempts
}

export interface OwnerRouteDeps {
  owner: OwnerCheck
  content: SocialContent
  followers: Followers
  limiter: RateLimiter
}

/**
 * The owner's blocks (docs/social-web.md), for the Studio's follower actions and scripts: the
 * owner token or a Studio session as the bearer token, 401 for anyone else (wrong tokens count
 * towards the lake's per-client throttle), a per-client rate, a 4 KiB body.
 *
 * - `POST /api/social/blocks` `{"target": "<host or account URL>"}`: stores the block
 *   (`socialBlock.<hash>`, private) and removes the followers it covers, in one commit; from
 *   then on they get no delivery and their activities are dropped before anything is fetched.
 * - `DELETE /api/social/blocks/<id>`: lifts it.
 */
export function registerOwnerRoutes(app: Hono, deps: OwnerRouteDeps): void {
  const owner = ownerGuard(deps)
  app.post(blocksPath, async (c) => {
    owner(c)
    const target = blockTarget(await readJsonTarget(c))
    const {_id, removedFollowers} = await storeBlock(deps, target)
    console.info(`[social] blocked ${target}: ${removedFollowers} follower(s) removed`)
    return c.json({_id, target, removedFollowers}, 201)
  })

  app.delete(`${blocksPath}/:id`, async (c) => {
    owner(c)
    const id = c.req.param('id')
    if (!id.startsWith(blockIdPrefix) || !(await deps.content.getDocument(id)))
      throw new HttpError(404, 'No such block.')
    await deps.content.mutate([{delete: {id}}], {author})
    return c.body(null, 204)
  })
}

/** Throws the refusal unless the caller is the owner, within the per-client rate. */
function ownerGuard({owner: check, limiter}: OwnerRouteDeps): (c: Context) => void {
  return (c) => {
    c.header('Cache-Control', 'no-store')
    const wait = limiter.take(clientOf(c).key)
    if (wait > 0) {
      c.header('Retry-After', String(wait))
      throw new HttpError(429, 'Too many requests: try again later.')
    }
    const token = ownerOrWait(c, check.verify, check.attempts)
    if (token === undefined) throw new HttpError(401, 'Blocks need the owner token.')
    if (token > 0) {
      c.header('Retry-After', String(token))
      throw new HttpError(429, 'Too many wrong tokens: try again later.')
    }
  }
}

async function readJsonTarget(c: Context): Promise<unknown> {
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(await readBody(c.req.raw, maxBodyBytes)))
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new HttpError(413, 'The body is too large.')
    throw new HttpError(400, 'The body must be JSON: {"target": "…"}.')
  }
  return isRecord(body) ? body.target : undefined
}

/** The block and the removal of the followers it covers, in one commit. */
async function storeBlock(
  {content, followers}: OwnerRouteDeps,
  target: string,
): Promise<{_id: string; removedFollowers: number}> {
  const _id = blockIdOf(target)
  const count = await content.query<number>('count(*[_type == "socialBlock"])')
  if (count >= maxBlocks && !(await content.getDocument(_id)))
    throw new HttpError(409, `At most ${maxBlocks} blocks: lift one first.`)
  const covered = (await followers.all()).filter(
    (f) => f.actor === target || hostOf(f.actor) === target,
  )
  await content.mutate(
    [
      {createOrReplace: {_id, _type: 'socialBlock', target, blockedAt: new Date().toISOString()}},
      ...covered.map((f) => ({delete: {id: f._id}})),
    ],
    {author},
  )
  return {_id, removedFollowers: covered.length}
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}
