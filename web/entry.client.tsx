import {startTransition, useEffect} from 'react'
import {hydrateRoot} from 'react-dom/client'
import {createBrowserRouter, RouterContextProvider, RouterProvider} from 'react-router-dom'
import {hydratedEvent} from './boot/boot.ts'
import {getBrowserClient} from './browserClient.ts'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import {readPayloadRaw} from './payload.ts'
import {routes} from './routes.tsx'

/** Renders nothing; its effect runs once the hydration render has committed. */
function HydrationSignal() {
  useEffect(() => {
    // A marker for tests and tools, and the boot script's cue to replay held clicks.
    document.documentElement.dataset.hydrated = 'true'
    document.dispatchEvent(new Event(hydratedEvent))
  }, [])
  return null
}

// The boot script (boot/boot.ts) imports this module at the visitor's first interaction.
// Hydrate the server's document with the loader data it rendered (no refetch on load).
const {raw, payload} = readPayloadRaw()
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
    <Document site={payload.site} payloadJson={raw}>
      <RouterProvider router={router} />
      <HydrationSignal />
    </Document>,
  )
})
