import type {BootOptions} from './boot.ts'
import type {BootBusy} from './busy.ts'
import type {nextPages} from './nextPages.ts'

/**
 * A boot part (bootScript.ts inlines it as source; it refers to nothing outside itself): on a
 * 'Load More' tap before the app runs, adds the next page's new cards, takes its payload (so
 * hydration later matches) and replaces the address (`?count=`), not a history entry per tap.
 * If that fails, the form still works as a plain GET: the next page, rendered by the server.
 */
export function loadMoreInPlace(
  options: BootOptions,
  busy: BootBusy,
  pages: ReturnType<typeof nextPages>,
): void {
  busy.takeOver(
    options.loadMoreAttribute,
    '[blog] loading more in place failed, loading the next page instead',
    async (form) => {
      const {doc, address} = await pages.nextPage(form)
      const shown = document.querySelectorAll('main article')
      const grid = shown[0]?.parentElement
      const cards = [...doc.querySelectorAll('main article')].slice(shown.length)
      const payload = document.getElementById(options.payloadId)
      const nextPayload = doc.getElementById(options.payloadId)
      if (!grid || !payload || !nextPayload) throw new Error('not a blog page')
      grid.append(...cards.map((card) => document.adoptNode(card)))
      payload.textContent = nextPayload.textContent
      const nextForm = doc.querySelector<HTMLFormElement>(`form[${options.loadMoreAttribute}]`)
      if (nextForm) {
        // Keep the same form and button, so focus stays on it: take the next page's fields.
        form.setAttribute('action', nextForm.getAttribute('action') ?? '')
        form.replaceChildren(...[...nextForm.childNodes].map((n) => document.adoptNode(n)))
        form.querySelector('button')?.focus()
        pages.watch(form)
      } else {
        form.remove()
        cards[0]?.querySelector<HTMLElement>('a')?.focus()
      }
      history.replaceState(history.state, '', address)
    },
  )
}
