import type {BootOptions} from './boot.ts'

/** What the boot parts share: whether the app has taken over, and the page's busy mark. */
export interface BootBusy {
  /** The app has hydrated (`<html data-hydrated>`): React serves the forms, the boot steps aside. */
  appRuns(): boolean
  /** Marks `<html data-boot-busy>` while the boot changes the page; the app waits for it. */
  begin(): void
  /** Ends one change; the last one clears the mark and dispatches `bootIdleEvent`. */
  end(): void
}

/** A boot part (bootScript.ts inlines it as source): refers to nothing outside itself. */
export function bootBusy(options: BootOptions): BootBusy {
  const root = document.documentElement
  let busy = 0
  return {
    appRuns: () => root.dataset.hydrated !== undefined,
    begin() {
      busy++
      root.dataset.bootBusy = ''
    },
    end() {
      if (--busy > 0) return
      delete root.dataset.bootBusy
      document.dispatchEvent(new Event(options.bootIdleEvent))
    },
  }
}
