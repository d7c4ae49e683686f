import {useEffect, useId, useRef, type ReactNode} from 'react'
import styled from 'styled-components'
import {theme} from './theme.ts'

const Dialog = styled.dialog`
  max-width: min(34rem, calc(100vw - 2rem));
  padding: 0;
  border: 1px solid ${theme.line};
  border-radius: 10px;
  background: ${theme.card};
  color: ${theme.ink};
  box-shadow: 0 12px 40px rgb(0 0 0 / 25%);
  &::backdrop {
    background: rgb(43 37 32 / 55%);
  }
`

const Body = styled.div`
  padding: 1.25rem 1.5rem 1.5rem;
  h2 {
    margin-top: 0;
  }
`

const Close = styled.button`
  float: right;
  min-width: 44px;
  min-height: 44px;
  border: 1px solid ${theme.line};
  border-radius: 6px;
  background: ${theme.paper};
  color: ${theme.ink};
  font: inherit;
  cursor: pointer;
`

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), textarea, select, [tabindex]:not([tabindex="-1"])'

export interface ModalProps {
  title: string
  onClose(): void
  /** Gets focus back when the modal closes. */
  returnFocusTo: HTMLElement | null
  children: ReactNode
}

/**
 * A modal dialog (native <dialog> shown with showModal, so the page behind is inert). The
 * backdrop or the close button closes it, a click inside does not, Esc closes it; Tab cycles
 * inside; focus returns to the opener.
 */
export function Modal({title, onClose, returnFocusTo, children}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    dialog.showModal()
    return () => {
      dialog.close()
      returnFocusTo?.focus()
    }
  }, [returnFocusTo])

  function onKeyDown(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !ref.current) return
    const items = [...ref.current.querySelectorAll<HTMLElement>(focusable)]
    const first = items[0]
    const last = items[items.length - 1]
    if (!first || !last) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <Dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Esc: let React state decide, so the dialog and the state never disagree.
        event.preventDefault()
        onClose()
      }}
      // The dialog box has no padding of its own: a click whose target is the <dialog> itself
      // landed on the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
      onKeyDown={onKeyDown}
    >
      <Body>
        <Close type="button" onClick={onClose} aria-label="Close">
          ×
        </Close>
        <h2 id={titleId}>{title}</h2>
        {children}
      </Body>
    </Dialog>
  )
}
