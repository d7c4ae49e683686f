import {startTransition, useEffect} from 'react'
import {hydrateRoot} from 'react-dom/client'
import {createBrowserRouter, RouterContextProvider, RouterProvider} from 'react-router-dom'
import {bootIdleEvent, hydratedEvent} from './boot/boot.ts'
import {getBrowserClient} from './browserClient.ts'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import {readPayloadRaw} from './payload.ts'
import {loadPreviewEditing} from './preview/loadPreviewEditing.ts'
import {routes} from './routes.tsx'

/** Renders nothing; its effect runs once the hydration render has committed. */
function HydrationSignal() {
  useEffect(() => {
    // A marker for tests and tools, and the boot script's cue to step aside for good.
    document.documentElement.dataset.hydrated = 'true'
    document.dispatchEvent(new Event(hydratedEvent))
    // React Router navigates in the page from now on: a prerendered page would go unused.
    for (const rules of document.querySelectorAll('script[type="speculationrules"]')) rules.remove()
    // The content client (its own chunk), fetched when a link is about to be followed rather
    // than at once: parsing it would compete with whatever the visitor taps next.
    const intent = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest('a[href^="/"]')) return
      for (const type of intents) document.removeEventListener(type, intent, true)
      getBrowserClient().catch(() => {})
    }
    const intents = ['pointerdown', 'mouseover', 'focusin']
    for (const type of intents) document.addEventListener(type, intent, true)
  }, [])
  return null
}

// The boot script (boot/appOnIntent.ts) imports this module after the visitor's first interaction. It
// may be changing the page (adding the cards of a 'Load More', showing a toast): hydrate once it
// has finished, so the document and the payload agree, and tell it to step aside.
const root = document.documentElement
if (root.dataset.bootBusy !== undefined) {
  await new Promise((resolve) => document.addEventListener(bootIdleEvent, resolve, {once: true}))
}
root.dataset.hydrated = 'pending'

// Hydrate the server's document with the loader data it rendered (no refetch on load).
const {raw, payload} = readPayloadRaw()
// In preview mode, fetch the overlays' code while hydrating (preview/loadPreviewEditing.ts).
if (payload.preview) {
  loadPreviewEditing().catch((error: unknown) =>
    console.error('[preview] the overlays did not load', error),
  )
}
const router = createBrowserRouter(routes, {
  hydrationData: payload.hydrationData,
  getContext() {
    const context = new RouterContextProvider()
    context.set(sanityClientContext, getBrowserClient)
    return context
  },
})

// In a transition, hydration yields to the browser every few milliseconds instead of blocking
// the main thread in one long task (what React Router's own framework entry does).
startTransition(() => {
  hydrateRoot(
    document,
    <Document
      site={payload.site}
      payloadJson={raw}
      flash={payload.flash}
      preview={payload.preview === true}
    >
      <RouterProvider router={router} />
      <HydrationSignal />
    </Document>,
  )
})
