import type {ReactNode} from 'react'
import {previewAttribute} from './boot/boot.ts'
import {palettes} from './components/theme.ts'
import {FlashContext, type Flash} from './components/flashContext.ts'
import {SiteConfigContext} from './components/siteConfigContext.ts'
import type {SiteConfig} from '../shared/siteConfig.ts'
import {payloadElementId} from './payload.ts'
import {PreviewContext} from './preview/previewContext.ts'

export interface DocumentProps {
  site: SiteConfig
  /** Serialized payload (payload.ts); null renders a static page without the browser bundle. */
  payloadJson: string | null
  /** A one-time message this page shows (the payload carries it to the browser). */
  flash?: Flash | null
  /** Preview mode: the owner's drafts (server: render options; browser: the payload). */
  preview?: boolean
  children: ReactNode
}

/**
 * The whole HTML document, rendered by React on the server and hydrated as `document` in the
 * browser; pages add their <title>, <meta> and <link> from anywhere (React 19 hoists them into
 * <head>). The browser renders it with the same props, read back from the payload.
 */
export function Document({
  site,
  payloadJson,
  flash = null,
  preview = false,
  children,
}: DocumentProps) {
  return (
    // `data-preview` makes the boot script load the app at once (boot/boot.ts).
    <html lang="en" {...(preview ? {[previewAttribute]: ''} : {})}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          name="theme-color"
          media="(prefers-color-scheme: light)"
          content={palettes.light.paper}
        />
        <meta
          name="theme-color"
          media="(prefers-color-scheme: dark)"
          content={palettes.dark.paper}
        />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <SiteConfigContext value={site}>
          <FlashContext value={flash}>
            <PreviewContext value={preview}>{children}</PreviewContext>
          </FlashContext>
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
