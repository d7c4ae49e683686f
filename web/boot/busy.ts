import type {BootOptions} from './boot.ts'

/** What the boot parts share: whether the app has taken over, and the page's busy mark. */
export interface BootBusy {
  /** The app has hydrated (`<html data-hydrated>`): React serves the forms, the boot steps aside. */
  appRuns(): boolean
  /** Marks `<html data-boot-busy>` while the boot changes the page; the app waits for it. */
  begin(): void
  /** Ends one change; the last one clears the mark and dispatches `bootIdleEvent`. */
  end(): void
  /**
   * Answers the submit of a form marked `attribute` until the app runs: `work` on the form, the
   * page marked busy meanwhile; if it fails, `failure` is logged and the form is posted as
   * without JavaScript (the server's own answer).
   */
  takeOver(attribute: string, failure: string, work: (form: HTMLFormElement) => Promise<void>): void
}

/** A boot part (bootScript.ts inlines it as source): refers to nothing outside itself. */
export function bootBusy(options: BootOptions): BootBusy {
  const root = document.documentElement
  let busy = 0
  const appRuns = () => root.dataset.hydrated !== undefined
  const begin = () => {
    busy++
    root.dataset.bootBusy = ''
  }
  const end = () => {
    if (--busy > 0) return
    delete root.dataset.bootBusy
    document.dispatchEvent(new Event(options.bootIdleEvent))
  }
  const takeOver: BootBusy['takeOver'] = (attribute, failure, work) =>
    document.addEventListener('submit', (event) => {
      const form = event.target
      if (!(form instanceof HTMLFormElement) || appRuns() || event.defaultPrevented) return
      if (!form.hasAttribute(attribute)) return
      event.preventDefault()
      begin()
      work(form)
        .catch((error: unknown) => {
          console.warn(failure, error)
          form.submit()
        })
        .finally(end)
    })
  return {appRuns, begin, end, takeOver}
}
