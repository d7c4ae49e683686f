import {lazy, Suspense} from 'react'
import {useHydrated} from '../components/useHydrated.ts'
import {PreviewBar} from './PreviewBar.tsx'
import {usePreview} from './usePreview.ts'

// The one import of the visual-editing code, behind the preview flag (e2e/studio-chunks.test.ts
// checks that no public page can reach what it brings).
const PreviewEditing = lazy(() => import('./PreviewEditing.tsx'))

/**
 * Preview mode's additions to every page, rendered inside the router (Root.tsx): the bar, and
 * once the page has hydrated, the visual-editing overlays. Public pages get nothing.
 */
export function Preview() {
  const preview = usePreview()
  const hydrated = useHydrated()
  if (!preview) return null
  return (
    <>
      <PreviewBar />
      {hydrated && (
        <Suspense fallback={null}>
          <PreviewEditing />
        </Suspense>
      )}
    </>
  )
}
