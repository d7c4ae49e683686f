export interface HeldClicks {
  /** Stops holding and clicks again, in order, every button that was clicked meanwhile. */
  release(): void
}

/**
 * Until the page is hydrated a button does nothing (its handler is React's), so a click on one is
 * held and replayed once React listens: a visitor who opens the menu while the app is still
 * loading gets the menu, not a dead button. Links and everything else keep working natively.
 */
export function holdButtonClicks(): HeldClicks {
  const held: HTMLButtonElement[] = []
  const hold = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null
    if (!button || button.disabled) return
    event.preventDefault()
    event.stopImmediatePropagation()
    if (!held.includes(button)) held.push(button)
  }
  document.addEventListener('click', hold, true)
  return {
    release() {
      document.removeEventListener('click', hold, true)
      for (const button of held.splice(0)) if (button.isConnected) button.click()
    },
  }
}
