import {startTransition} from 'react'
import {hydrateRoot} from 'react-dom/client'
import {createBrowserRouter, RouterContextProvider, RouterProvider} from 'react-router-dom'
import {getBrowserClient} from './browserClient.ts'
import {sanityClientContext} from './clientContext.ts'
import {Document} from './Document.tsx'
import {readPayloadRaw} from './payload.ts'
import {routes} from './routes.tsx'

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
    <Document site={payload.site} assets={payload.assets} payloadJson={raw}>
      <RouterProvider router={router} />
    </Document>,
  )
})
