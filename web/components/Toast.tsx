import styled, {createGlobalStyle} from 'styled-components'
import {toastClass} from '../boot/boot.ts'
import {toastMs} from '../contactToast.ts'
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

// A plain class, not a styled component: the boot script shows the same message before the app
// runs (web/boot/boot.ts). The animation hides it after exactly 4000 ms with no script at all,
// which is how a page rendered after a native post shows it (components/flashContext.ts).
const MessageStyle = createGlobalStyle`
  .${toastClass} {
    margin: 0;
    padding: 0.85rem 1.25rem;
    border-radius: 8px;
    background: ${theme.ink};
    color: ${theme.paper};
    box-shadow: 0 8px 24px rgb(0 0 0 / 25%);
    animation: site-toast-out 1ms linear ${toastMs}ms forwards;
  }
  @keyframes site-toast-out {
    to { visibility: hidden; }
  }
`

/**
 * A polite live region that is always in the page, so screen readers announce the message.
 * `data-toast` is how the boot script finds it.
 */
export function Toast({message, messageKey}: {message: string | null; messageKey?: number}) {
  return (
    <>
      <MessageStyle />
      <Region role="status" aria-live="polite" data-toast="">
        {message && (
          <p key={messageKey} className={toastClass}>
            {message}
          </p>
        )}
      </Region>
    </>
  )
}
