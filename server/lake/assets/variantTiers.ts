import {VariantCache, type Variant} from './variantCache.ts'
import {VariantDiskCache} from './variantDiskCache.ts'

/**
 * Which cache a variant lives in. `site`: the variants the site's own pages, cards and share
 * cards ask for (shared/imageUrl.ts `siteVariantUrls`, pre-rendered by prerender.ts); `visitor`:
 * every other variant anyone asks for. Each tier is its own least-recently-used cache in memory
 * and on disk, so a flood of distinct visitor variants evicts only visitor variants: with one
 * cache, two clients' large PNGs pushed 3 of the 4 cached `/blog` thumbnails out of the disk
 * cache in 40 s (security review 3, M2).
 */
export type Tier = 'site' | 'visitor'

export interface TierBounds {
  memory: Record<Tier, number>
  disk: Record<Tier, number>
}

/**
 * 32 MiB of memory a tier (64 MiB in all, as the one cache had). On disk the visitors keep the
 * one cache's 256 MiB, and the site 128 MiB: about 11 variants of 20–100 KB per post with a
 * cover, so well over a thousand posts' covers.
 */
export const defaultTierBounds: TierBounds = {
  memory: {site: 32 * 1024 * 1024, visitor: 32 * 1024 * 1024},
  disk: {site: 128 * 1024 * 1024, visitor: 256 * 1024 * 1024},
}

/** The folders under DATA_DIR/cache; the visitors' is the one cache's old folder. */
const folders: Record<Tier, string> = {site: 'site-images', visitor: 'images'}

/** The two tiers of variants, each in memory and on disk; lookups try the site's first. */
export class VariantTiers {
  private readonly memory: Record<Tier, VariantCache>
  private readonly disk: Record<Tier, VariantDiskCache>

  constructor(dataDir: string, bounds: TierBounds = defaultTierBounds) {
    this.memory = {
      site: new VariantCache(bounds.memory.site),
      visitor: new VariantCache(bounds.memory.visitor),
    }
    this.disk = {
      site: new VariantDiskCache(dataDir, bounds.disk.site, folders.site),
      visitor: new VariantDiskCache(dataDir, bounds.disk.visitor, folders.visitor),
    }
  }

  /** The variant from memory, either tier. */
  hot(key: string): Variant | undefined {
    return this.memory.site.get(key) ?? this.memory.visitor.get(key)
  }

  /** The variant from disk, either tier; it is kept in that tier's memory too. */
  async stored(key: string, type: string): Promise<Variant | undefined> {
    for (const tier of ['site', 'visitor'] as const) {
      const variant = await this.disk[tier].get(key, type)
      if (variant) {
        this.memory[tier].set(key, variant)
        return variant
      }
    }
    return undefined
  }

  /** Whether `tier` (or, without one, either tier) holds the variant, without reading it. */
  has(key: string, type: string, tier?: Tier): boolean {
    const tiers: Tier[] = tier ? [tier] : ['site', 'visitor']
    return tiers.some((t) => this.memory[t].has(key) || this.disk[t].has(key, type))
  }

  /** Keeps a variant in `tier`, in memory and on disk (a failed disk write costs only the cache). */
  async keep(key: string, variant: Variant, tier: Tier): Promise<void> {
    this.memory[tier].set(key, variant)
    await this.disk[tier].set(key, variant)
  }
}
