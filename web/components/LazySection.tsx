import {Suspense, type ReactNode} from 'react'
import styled from 'styled-components'
import {Loading} from './Loading.tsx'
import {useHydrated} from './useHydrated.ts'

// Room reserved for the section, so its arrival does not shift what is on screen.
const Reserve = styled.section<{$minHeight: string}>`
  position: relative;
  z-index: 1;
  min-height: ${(props) => props.$minHeight};
`

/**
 * A below-the-fold section whose code loads lazily (React.lazy) after hydration, showing the
 * spec's 'Loading ...' meanwhile. The server and the hydrating render both show the fallback, so
 * the markup matches and the section's chunk never delays the first paint.
 */
export function LazySection({label, minHeight, children}: {label: string; minHeight: string; children: ReactNode}) {
  const hydrated = useHydrated()
  const fallback = <Loading text="Loading ..." />
  return (
    <Reserve aria-label={label} $minHeight={minHeight}>
      {hydrated ? <Suspense fallback={fallback}>{children}</Suspense> : fallback}
    </Reserve>
  )
}
