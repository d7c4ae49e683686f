import {VisualEditing} from '@sanity/visual-editing/react-router'
import {useEffect} from 'react'
import {getBrowserClient} from '../browserClient.ts'
import {useLiveDrafts} from './useLiveDrafts.ts'

/**
 * The Presentation tool's side of preview mode, loaded only in preview (loadPreviewEditing.ts
 * imports this module dynamically, behind the preview flag, so no public page can reach it:
 * e2e/studio-chunks.test.ts). `<VisualEditing>` (React Router's adapter) connects to the Studio
 * framing the page, draws the overlays over the `data-sanity` elements, follows the Studio's
 * navigation, and answers `presentation/refresh` (sent on each saved draft revision, and by the
 * Studio's reload button) with `useRevalidator().revalidate()`: the route loaders run again
 * through the preview content client, so the newest draft shows without a full reload.
 */
export default function PreviewEditing() {
  useLiveDrafts()
  // The content client serves every refresh: fetch its chunk now rather than at the first one.
  useEffect(() => {
    getBrowserClient().catch((error: unknown) =>
      console.error('[preview] the content client did not load', error),
    )
  }, [])
  return <VisualEditing />
}
