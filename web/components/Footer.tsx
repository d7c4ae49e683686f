import styled from 'styled-components'
import type {FooterModalName} from '../copy/settings.ts'
import {useSettings} from '../copy/useSettings.ts'
import {invokes, Modal} from './Modal.tsx'
import {theme} from './theme.ts'
import {FooterFollowLinks} from '../reading/FooterFollowLinks.tsx'
import {useSanityNode} from '../preview/useSanityNode.ts'

const Bar = styled.footer`
  position: relative;
  z-index: 1;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: 0.5rem 1.5rem;
  padding: 1.5rem 1rem 2rem;
  border-top: 1px solid ${theme.line};
  color: ${theme.muted};
  font-size: 0.95rem;
`

const LinkButton = styled.button`
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  border: 0;
  background: none;
  color: ${theme.accent};
  font: inherit;
  text-decoration: underline;
  cursor: pointer;
`

const names: FooterModalName[] = ['me', 'privacy', 'client']

const dialogId = (name: FooterModalName) => `footer-${name}`

/**
 * The footer with its three modals: me, privacy, client (requirements §1, §4). Each button opens
 * its dialog natively (Modal.tsx), so the first tap needs no app.
 */
export function Footer() {
  const {ownerName, footerModals} = useSettings()
  // In preview: a modal's words open their field of the site settings in the Studio.
  const node = useSanityNode('siteSettings')
  const field = (path: string) => node('siteSettings', path)
  return (
    <Bar>
      <span>© {ownerName}</span>
      {names.map((name) => (
        <LinkButton
          key={name}
          type="button"
          aria-haspopup="dialog"
          {...invokes(dialogId(name), 'show-modal')}
          {...field(`footerModals.${name}.label`)}
        >
          {footerModals[name].label}
        </LinkButton>
      ))}
      <FooterFollowLinks />
      {names.map((name) => (
        <Modal key={name} id={dialogId(name)} title={footerModals[name].title}>
          <div {...field(`footerModals.${name}.paragraphs`)}>
            {footerModals[name].paragraphs.map((text) => (
              <p key={text}>{text}</p>
            ))}
          </div>
        </Modal>
      ))}
    </Bar>
  )
}
