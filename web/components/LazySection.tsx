import {Suspense, type ReactNode} from 'react'
import styled from 'styled-components'
import {Loading} from './Loading.tsx'

// Room reserved for the section, so its arrival does not shift what is on screen.
const Reserve = styled.section<{$minHeight: string}>`
  position: relative;
  z-index: 1;
  min-height: ${(props) => props.$minHeight};
`

/**
 * A below-the-fold section whose code is a lazy chunk (React.lazy), showing the spec's
 * 'Loading ...' while that chunk loads. The server waits for it (entry.server.tsx prerenders), so
 * a first visit gets the content in its HTML and hydration adopts it; the fallback shows when
 * the browser navigates to the page before the chunk has arrived.
 */
export function LazySection({
  label,
  minHeight,
  children,
}: {
  label: string
  minHeight: string
  children: ReactNode
}) {
  return (
    <Reserve aria-label={label} $minHeight={minHeight}>
      <Suspense fallback={<Loading text="Loading ..." />}>{children}</Suspense>
    </Reserve>
  )
}
