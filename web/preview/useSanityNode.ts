import {sanityNodeAttribute} from './sanityNode.ts'
import {usePreview} from './usePreview.ts'

/** Props that mark an element as one field of a document, for the overlays. */
export type SanityNodeProps = {'data-sanity'?: string}

/**
 * In preview mode, `node(id, path)` gives the `data-sanity` attribute that lets the owner click
 * the element to open that field of that post in the Studio; on public pages it gives nothing.
 */
export function useSanityNode(
  type: string,
): (id: string | undefined, path: string) => SanityNodeProps {
  const preview = usePreview()
  return (id, path) => (preview && id ? {'data-sanity': sanityNodeAttribute({id, type, path})} : {})
}
