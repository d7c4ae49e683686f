/**
 * What makes a redirect safe to serve (schemas/documents/redirect.ts validates with it, the site
 * serves only what passes it): a site path as the source, a site path or (marked external) an
 * https address as the target, and no loop or chain with the redirects already saved.
 */

/** A path of this site: one leading slash (never `//host`, which a browser reads as an origin). */
export function isSitePath(value: unknown): value is string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) && value.length <= 400
}

/** An external target: an absolute https address. */
export function isExternalTarget(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

export interface RedirectRule {
  _id?: string
  from?: string
  to?: string
}

/**
 * Why `rule` cannot be saved beside `others` (their `_id`s differ from its own), or undefined:
 * a loop (to itself), or a chain (its target is another's source, or its source another's target).
 */
export function redirectConflict(rule: RedirectRule, others: RedirectRule[]): string | undefined {
  if (rule.from !== undefined && rule.from === rule.to) return 'A redirect cannot point at itself'
  const into = others.find((other) => other.from !== undefined && other.from === rule.to)
  if (into) return `${rule.to} already redirects to ${into.to}: point at that address instead`
  const onto = others.find((other) => other.to !== undefined && other.to === rule.from)
  if (onto) return `${onto.from} already redirects here: it would make a chain`
  return undefined
}
