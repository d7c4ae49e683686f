import {startTransition, useEffect} from 'react'
import {hydrateRoot} from 'react-dom/client'
import {createBrowserRouter, RouterContextProvider, RouterProvider} from 'react-router-dom'
import {getBrowserClient} from './browserClient.ts'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import {readPayloadRaw} from './payload.ts'
import {routes} from './routes.tsx'

/** Renders nothing; its effect runs once the hydration render has committed. */
function HydrationSignal({onHydrated}: {onHydrated: () => void}) {
  useEffect(() => {
    // A marker for tests and tools that need to know the page is interactive.
    document.documentElement.dataset.hydrated = 'true'
    onHydrated()
  }, [onHydrated])
  return null
}

/**
 * Hydrates the server's document with the loader data it rendered (no refetch on load); resolves
 * once the page is interactive. The boot entry (entry.client.ts) imports this module, and with it
 * React, the router and the styles, at the visitor's first interaction.
 */
export function hydrate(): Promise<void> {
  const {raw, payload} = readPayloadRaw()
  const router = createBrowserRouter(routes, {
    hydrationData: payload.hydrationData,
    getContext() {
      const context = new RouterContextProvider()
      context.set(sanityClientContext, getBrowserClient)
      return context
    },
  })
  return new Promise((resolve) => {
    // In a transition, hydration yields to the browser every few milliseconds instead of
    // blocking the main thread in one long task (what React Router's own framework entry does).
    startTransition(() => {
      hydrateRoot(
        document,
        <Document site={payload.site} assets={payload.assets} payloadJson={raw}>
          <RouterProvider router={router} />
          <HydrationSignal onHydrated={resolve} />
        </Document>,
      )
    })
  })
}
