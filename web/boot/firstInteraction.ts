/**
 * What counts as the visitor starting to use the page: moving or pressing a pointer, touching,
 * scrolling, a key, or focus arriving on something. Reading a page that is already complete
 * (server HTML) needs none of them.
 */
const interactionEvents = [
  'pointermove',
  'pointerdown',
  'touchstart',
  'wheel',
  'scroll',
  'keydown',
  'focusin',
] as const

/** Calls `start` once, at the first interaction. */
export function onFirstInteraction(start: () => void): void {
  const options = {capture: true, passive: true} as const
  const once = () => {
    for (const type of interactionEvents) window.removeEventListener(type, once, options)
    start()
  }
  for (const type of interactionEvents) window.addEventListener(type, once, options)
}
