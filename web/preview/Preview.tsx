import {lazy, Suspense} from 'react'
import {useHydrated} from '../components/useHydrated.ts'
import {loadPreviewEditing} from './loadPreviewEditing.ts'
import {PreviewBar} from './PreviewBar.tsx'
import {usePreview} from './usePreview.ts'

const PreviewEditing = lazy(loadPreviewEditing)

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
