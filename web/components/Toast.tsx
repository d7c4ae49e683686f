import styled from 'styled-components'
import {theme} from './theme.ts'

const Region = styled.div`
  position: fixed;
  z-index: 10;
  right: 1rem;
  bottom: 1rem;
  left: 1rem;
  display: flex;
  justify-content: center;
  pointer-events: none;
`

const Message = styled.p`
  margin: 0;
  padding: 0.85rem 1.25rem;
  border-radius: 8px;
  background: ${theme.ink};
  color: #fff;
  box-shadow: 0 8px 24px rgb(0 0 0 / 25%);
`

/** A polite live region that is always in the page, so screen readers announce the message. */
export function Toast({message}: {message: string | null}) {
  return (
    <Region role="status" aria-live="polite">
      {message && <Message>{message}</Message>}
    </Region>
  )
}
