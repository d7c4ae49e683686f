import type {Tier} from './variantTiers.ts'

/**
 * Keys of the site's own variants remembered (those pre-rendering was asked for), so that one
 * rendered on a reader's request instead, or again after eviction, goes to the site's tier too;
 * the oldest are forgotten first. A few hundred bytes each.
 */
const maxSiteKeys = 20_000

/** Which variants are the site's own (variantTiers.ts: the tier visitors cannot evict). */
export class SiteVariantKeys {
  private readonly keys = new Set<string>()

  /** Marks `key` as the site's, as its newest; the oldest past the bound are forgotten. */
  remember(key: string): void {
    this.keys.delete(key)
    this.keys.add(key)
    for (const oldest of this.keys) {
      if (this.keys.size <= maxSiteKeys) break
      this.keys.delete(oldest)
    }
  }

  /** The tier a variant rendered now is kept in. */
  tierOf(key: string): Tier {
    return this.keys.has(key) ? 'site' : 'visitor'
  }
}
