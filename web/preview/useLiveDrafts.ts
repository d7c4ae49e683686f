import {useEffect, useRef} from 'react'
import {useRevalidator} from 'react-router-dom'
import {previewContentPath} from '../../shared/siteConfig.ts'
import {readPayload} from '../payload.ts'

/**
 * Refreshes the page's data at each saved draft: the lake's live events (`includeDrafts`, through
 * the preview proxy, which holds the credential) say a draft changed, and the route loaders run
 * again. The Studio's own `presentation/refresh` comes too, but only after its edit state settles
 * (about a second later); this one follows the commit itself. Not framed, it is the only refresh.
 */
export function useLiveDrafts(): void {
  const revalidator = useRevalidator()
  // The revalidator changes with every navigation state; the stream must not reopen with it.
  const latest = useRef(revalidator)
  useEffect(() => {
    latest.current = revalidator
  })
  useEffect(() => {
    const {site} = readPayload()
    const stream = new EventSource(
      `${previewContentPath}/v${site.apiVersion}/data/live/events/${site.dataset}?includeDrafts=true`,
    )
    const refresh = () => void latest.current.revalidate()
    stream.addEventListener('message', refresh)
    return () => {
      stream.removeEventListener('message', refresh)
      stream.close()
    }
  }, [])
}
