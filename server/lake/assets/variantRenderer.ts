import {ColdTransformBudget} from './coldBudget.ts'
import {SiteVariantKeys} from './siteVariantKeys.ts'
import {SourceSizes} from './sourceSizes.ts'
import {outputMime, transform} from './transform.ts'
import {TransformQueue} from './transformQueue.ts'
import type {Variant} from './variantCache.ts'
import type {VariantPlan} from './variantPlan.ts'
import {defaultTierBounds, VariantTiers} from './variantTiers.ts'

/** Where a variant came from: `X-Cache` on the response (memory, disk, or transformed now). */
export type VariantSource = 'hit' | 'disk' | 'miss'

/** A client over its budget of cold transforms per minute (coldBudget.ts). */
export class ColdBudgetExceeded extends Error {
  readonly retryAfterSeconds: number

  constructor(retryAfterSeconds: number) {
    super('Too many new image variants from this client')
    this.retryAfterSeconds = retryAfterSeconds
  }
}

export interface VariantRendererOptions {
  /** Where the disk caches of variants live (DATA_DIR/cache/images and cache/site-images). */
  dataDir: string
  /** Bytes of the visitors' tier on disk (variantTiers.ts). */
  diskCacheBytes?: number
  /** Output pixels of cold transforms per client per minute (coldBudget.ts). */
  coldPixelsPerMinute?: number
}

/**
 * Where variants come from, for readers and for pre-rendering alike: the tiers' memory and disk
 * (variantTiers.ts), else a transform on the queue (transformQueue.ts), which a second request
 * for the same variant shares while it runs. A reader's cold transform is budgeted per client
 * (coldBudget.ts); pre-rendering runs in the queue's background lane.
 */
export class VariantRenderer {
  readonly sizes = new SourceSizes()
  readonly siteKeys = new SiteVariantKeys()
  private readonly tiers: VariantTiers
  private readonly queue = new TransformQueue()
  private readonly budget: ColdTransformBudget
  private readonly inFlight = new Map<string, Promise<Variant>>()

  constructor(options: VariantRendererOptions) {
    this.tiers = new VariantTiers(options.dataDir, {
      ...defaultTierBounds,
      disk: {
        ...defaultTierBounds.disk,
        visitor: options.diskCacheBytes ?? defaultTierBounds.disk.visitor,
      },
    })
    this.budget = new ColdTransformBudget(options.coldPixelsPerMinute)
  }

  /** A transform, kept in its tier's memory and disk before anyone is answered. */
  private async render(plan: VariantPlan): Promise<Variant> {
    const size = await this.sizes.of(plan.file, plan.path)
    const done = await transform(plan.path, plan.params, plan.format, size)
    // disk.set never throws; a failed write only costs the cache.
    await this.tiers.keep(plan.key, done, this.siteKeys.tierOf(plan.key))
    return done
  }

  /**
   * The variant for a reader (`client`): from memory, disk, a transform already running, or a
   * new one. Throws ColdBudgetExceeded, the queue's QueueFullError, or the transform's error.
   */
  async forReader(
    client: string,
    plan: VariantPlan,
  ): Promise<{variant: Variant; source: VariantSource}> {
    const hot = this.tiers.hot(plan.key)
    if (hot) return {variant: hot, source: 'hit'}
    let pending = this.inFlight.get(plan.key)
    if (!pending) {
      const stored = await this.tiers.stored(plan.key, outputMime[plan.format])
      if (stored) return {variant: stored, source: 'disk'}
      pending = this.inFlight.get(plan.key)
    }
    if (!pending) {
      const wait = this.budget.take(client, plan.pixels)
      if (wait > 0) throw new ColdBudgetExceeded(wait)
      // A variant that was served is one a restart finds.
      pending = this.queue.run(client, () => this.render(plan))
      this.share(plan.key, pending)
    }
    return {variant: await pending, source: 'miss'}
  }

  /**
   * Renders the site's variant in the background unless it is cached or being rendered; one a
   * reader rendered already moves into the site's tier, where visitors cannot evict it.
   */
  async warm(plan: VariantPlan, stopped: () => boolean): Promise<void> {
    const type = outputMime[plan.format]
    this.siteKeys.remember(plan.key)
    if (!this.tiers.has(plan.key, type, 'site') && this.tiers.has(plan.key, type)) {
      const variant = this.tiers.hot(plan.key) ?? (await this.tiers.stored(plan.key, type))
      if (variant) await this.tiers.keep(plan.key, variant, 'site')
    }
    const cached = () => this.tiers.has(plan.key, type) || this.inFlight.has(plan.key)
    if (cached()) return
    await this.queue.runInBackground(async () => {
      // Looked at again when its turn comes: a reader may have asked for it meanwhile. Only a
      // render that has started is shared with readers (inFlight): one still waiting might be
      // dropped, and a reader must never wait on that.
      if (stopped() || cached()) return
      const pending = this.render(plan)
      this.share(plan.key, pending)
      await pending
    })
  }

  /** Lets later requests for `key` wait on `pending` until it settles. */
  private share(key: string, pending: Promise<Variant>): void {
    this.inFlight.set(key, pending)
    void pending.finally(() => this.inFlight.delete(key)).catch(() => undefined)
  }
}
