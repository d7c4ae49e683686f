import type {BootOptions} from './boot.ts'
import type {BootBusy} from './busy.ts'

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): the
 * contact form, before the app runs, posts by fetch, clears its fields and shows the toast for
 * `toastMs`. If that fails, the form is posted as without JavaScript, and the relay's own page
 * says what went wrong.
 */
export function contactByFetch(options: BootOptions, busy: BootBusy): void {
  const toast = () => {
    const region = document.querySelector('[role="status"][data-toast]')
    if (!region) return
    const message = document.createElement('p')
    message.className = options.toastClass
    message.textContent = options.thankYou
    region.replaceChildren(message)
    busy.begin()
    setTimeout(() => {
      message.remove()
      busy.end()
    }, options.toastMs)
  }
  const send = async (form: HTMLFormElement) => {
    busy.begin()
    try {
      const fields = Object.fromEntries(
        [...new FormData(form)].map(([name, value]) => [name, String(value)]),
      )
      fields._next = location.href
      const response = await fetch(form.action, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', Accept: 'application/json'},
        body: JSON.stringify(fields),
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      form.reset()
      toast()
    } catch (error) {
      console.warn('[contact] sending failed, posting the form instead', error)
      form.submit()
    } finally {
      busy.end()
    }
  }
  document.addEventListener('submit', (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement) || busy.appRuns() || event.defaultPrevented) return
    if (!form.hasAttribute(options.contactAttribute)) return
    event.preventDefault()
    void send(form)
  })
}
