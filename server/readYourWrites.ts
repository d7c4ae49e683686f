import {touchesPublic, type Lake} from './lake/index.ts'
import type {ContentEvents} from './live/contentEvents.ts'

/**
 * Read-your-writes in one process: a page asked for right after a publish waits for the live
 * stream to deliver it (ContentEvents.upToDate); the stream alone still drops the pages.
 */
export function followOwnCommits(lake: Lake, contentEvents: ContentEvents): void {
  let lastPublic = lake.revision
  lake.onCommit((tx) => {
    if (touchesPublic(tx)) lastPublic = tx.seq
  })
  contentEvents.followCommits(() => lastPublic)
}
