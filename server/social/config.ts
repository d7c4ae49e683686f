/** The social web's settings, from the environment (docs/social-web.md). */
export interface SocialConfig {
  /** `FEDERATION_ALLOW_PRIVATE=1`: fetch and deliver to loopback and private addresses. */
  allowPrivate: boolean
  /** `FEDERATION_SEND_PER_SECOND` (default 20): deliveries per second at most. */
  sendPerSecond: number
}

export function readSocialConfig(
  env: Record<string, string | undefined> = process.env,
): SocialConfig {
  const rate = Number(env.FEDERATION_SEND_PER_SECOND ?? '20')
  return {
    allowPrivate: env.FEDERATION_ALLOW_PRIVATE === '1',
    sendPerSecond: Number.isFinite(rate) && rate > 0 ? rate : 20,
  }
}
