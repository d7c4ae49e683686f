let pending: Promise<typeof import('./PreviewEditing.tsx')> | undefined

/**
 * The one import of the visual-editing code, behind the preview flag: the entry starts it before
 * hydrating a preview page (so the download overlaps hydration: the Studio allows the overlays
 * a few seconds to connect) and Preview.tsx renders it once hydrated. No public page calls it;
 * e2e/studio-chunks.test.ts checks that nothing it brings is reachable otherwise.
 */
export function loadPreviewEditing(): Promise<typeof import('./PreviewEditing.tsx')> {
  pending ??= import('./PreviewEditing.tsx')
  return pending
}
