import type {Context} from 'hono'

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

function socketAddress(env: unknown): string | undefined {
  // @hono/node-server passes {incoming, outgoing} as the env (its conninfo helper reads the same).
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined
  const incoming = env.incoming
  if (typeof incoming !== 'object' || incoming === null || !('socket' in incoming)) return undefined
  const socket = incoming.socket
  if (typeof socket !== 'object' || socket === null || !('remoteAddress' in socket))
    return undefined
  return typeof socket.remoteAddress === 'string' ? socket.remoteAddress : undefined
}

/**
 * The visitor's address for rate limiting. A peer on loopback is a reverse proxy on the same
 * machine (nginx, Caddy), so the last X-Forwarded-For entry — the one that proxy appended — is
 * the visitor; from any other peer the header is the visitor's own words and is ignored.
 */
export function clientAddress(c: Context): string {
  const peer = socketAddress(c.env) ?? 'unknown'
  if (!loopback.has(peer)) return peer
  const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim()
  return forwarded || peer
}
