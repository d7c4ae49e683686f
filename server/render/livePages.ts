import {RenderCache} from './cache.ts'
import type {RenderedPage} from './page.ts'
import type {ContentEvents} from '../live/contentEvents.ts'

/**
 * Variants of a page's address and error pages, kept apart from the real pages (500 by default,
 * server/render/cache.ts) so that endless made-up addresses evict only each other.
 */
const maxOtherPages = 64

/** Where a stored page goes: with the site's pages, or with the variants and error pages. */
export type PageShelf = 'pages' | 'others'

/** The generations of both shelves when a render started (RenderCache's `generation`). */
export interface Generations {
  pages: number
  others: number
}

/**
 * The rendered pages a process keeps while the content store's live events flow: dropped by the
 * sync tags each change names, all of them when the stream loses its place. Copies of the real
 * pages from before a loss are kept apart, shown only when a fresh render cannot reach the store.
 */
export class LivePages {
  private readonly pages = new RenderCache<RenderedPage>()
  private readonly others = new RenderCache<RenderedPage>(maxOtherPages)
  private stale = new Map<string, RenderedPage>()
  private droppedCount = 0
  private readonly unsubscribe: (() => void)[] = []
  private readonly events: ContentEvents | undefined

  constructor(events: ContentEvents | undefined) {
    this.events = events
    if (!events) return
    this.unsubscribe.push(
      events.onChange((change) => {
        if (change.kind === 'tags') {
          this.droppedCount += this.pages.drop(change.tags)
          this.others.drop(change.tags)
          return
        }
        // Position lost. While the store is away the pages may still be shown, marked stale,
        // when a fresh render fails; once the events flow again they are never shown.
        if (!events.live) for (const [key, page] of this.pages.values()) this.stale.set(key, page)
        this.pages.clear()
        this.others.clear()
      }),
      events.onState((state) => {
        if (state === 'live') this.stale = new Map()
      }),
    )
  }

  /** Read when a render starts; a change since then keeps its page out (`store`). */
  generations(): Generations {
    return {pages: this.pages.generation, others: this.others.generation}
  }

  get(key: string): RenderedPage | undefined {
    return this.pages.get(key) ?? this.others.get(key)
  }

  store(
    shelf: PageShelf,
    key: string,
    page: RenderedPage,
    tags: readonly string[],
    at: Generations,
  ): void {
    if (shelf === 'pages') this.pages.set(key, page, tags, at.pages)
    else this.others.set(key, page, tags, at.others)
  }

  /** The copy of `key` from before the live events failed, while they have not come back. */
  staleCopy(key: string): RenderedPage | undefined {
    return this.events?.live === true ? undefined : this.stale.get(key)
  }

  sizes(): {pages: number; others: number; stale: number} {
    return {pages: this.pages.size, others: this.others.size, stale: this.stale.size}
  }

  /** Pages dropped by live messages so far (the bench divides it by the messages seen). */
  get dropped(): number {
    return this.droppedCount
  }

  /** Stops following the live events. */
  close(): void {
    for (const stop of this.unsubscribe) stop()
  }
}
