/** The social web's settings, from the environment (docs/social-web.md). */
export interface SocialConfig {
  /** `FEDERATION_ALLOW_PRIVATE=1`: fetch and deliver to loopback and private addresses. */
  allowPrivate: boolean
  /** `FEDERATION_SEND_PER_SECOND` (default 20): deliveries per second at most. */
  sendPerSecond: number
  /** `FEDERATION_SEND_TRIES` (default 8): tries of a failing delivery before it is given up. */
  sendTries: number
  /** `FEDERATION_RETRY_SECONDS` (default 5): the first retry's delay, doubling after. */
  retrySeconds: number
}

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

export function readSocialConfig(
  env: Record<string, string | undefined> = process.env,
): SocialConfig {
  return {
    allowPrivate: env.FEDERATION_ALLOW_PRIVATE === '1',
    sendPerSecond: positive(env.FEDERATION_SEND_PER_SECOND, 20),
    sendTries: Math.ceil(positive(env.FEDERATION_SEND_TRIES, 8)),
    retrySeconds: positive(env.FEDERATION_RETRY_SECONDS, 5),
  }
}
