import {useId, type ReactNode} from 'react'
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

export interface ModalProps {
  id: string
  title: string
  children: ReactNode
}

/** Invoker-command attributes (HTML's `command`/`commandfor`), which React passes through. */
export function invokes(dialogId: string, command: 'show-modal' | 'close'): object {
  return {commandfor: dialogId, command}
}

/**
 * A modal dialog, in the page from the start and opened by the browser: a button with
 * `commandfor` and `command="show-modal"` (see `invokes`) shows it modally, so the page behind is
 * inert and focus moves into it. The close button (`command="close"`), Esc and a click on the
 * backdrop (`closedby="any"`) close it; a click inside does not; the browser returns focus to
 * the opener. Tab cycles inside (the boot script, web/boot/boot.ts). No app needed, and no state
 * for React to keep in step.
 */
export function Modal({id, title, children}: ModalProps) {
  const titleId = useId()
  return (
    <Dialog id={id} aria-labelledby={titleId} closedby="any">
      <Body>
        <Close type="button" aria-label="Close" {...invokes(id, 'close')}>
          ×
        </Close>
        <h2 id={titleId}>{title}</h2>
        {children}
      </Body>
    </Dialog>
  )
}
