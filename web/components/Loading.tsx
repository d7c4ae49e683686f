import styled from 'styled-components'
import {theme} from './theme.ts'

const Text = styled.p`
  color: ${theme.muted};
  font-style: italic;
`

/** The spec's loading texts: 'Loading ...' (Home's lazy sections) and 'Loading...' (a post). */
export function Loading({text = 'Loading...'}: {text?: string}) {
  return (
    <Text role="status" aria-live="polite">
      {text}
    </Text>
  )
}
