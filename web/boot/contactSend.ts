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
  busy.takeOver(
    options.contactAttribute,
    '[contact] sending failed, posting the form instead',
    async (form) => {
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
    },
  )
}
