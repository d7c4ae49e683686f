import type {ReactNode} from 'react'
import {FlashContext, type Flash} from './components/flashContext.ts'
import {SiteConfigContext} from './components/siteConfigContext.ts'
import type {SiteConfig} from './env.ts'
import {payloadElementId} from './payload.ts'

export interface DocumentProps {
  site: SiteConfig
  /** Serialized payload (payload.ts); null renders a static page without the browser bundle. */
  payloadJson: string | null
  /** A one-time message this page shows (the payload carries it to the browser). */
  flash?: Flash | null
  children: ReactNode
}

/**
 * The whole HTML document, rendered by React on the server and hydrated as `document` in the
 * browser; pages add their <title>, <meta> and <link> from anywhere (React 19 hoists them into
 * <head>). The browser renders it with the same props, read back from the payload.
 */
export function Document({site, payloadJson, flash = null, children}: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fbf7ef" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <SiteConfigContext value={site}>
          <FlashContext value={flash}>{children}</FlashContext>
        </SiteConfigContext>
        {/* The server appends the boot script and the speculation rules after this (web/boot/). */}
        {payloadJson !== null && (
          <script
            id={payloadElementId}
            type="application/json"
            dangerouslySetInnerHTML={{__html: payloadJson}}
          />
        )}
      </body>
    </html>
  )
}
