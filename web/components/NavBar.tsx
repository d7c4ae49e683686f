import {useRef} from 'react'
import {NavLink} from 'react-router-dom'
import styled from 'styled-components'
import {useSettings} from '../copy/useSettings.ts'
import {theme} from './theme.ts'

const links = [
  {to: '/', label: 'Home'},
  {to: '/blog', label: 'Blog'},
  {to: '/service', label: 'Services'},
  {to: '/testimonial', label: 'Testimonials'},
  {to: '/contact', label: 'Contact'},
  {to: '/search', label: 'Search'},
]

const Bar = styled.nav`
  position: relative;
  anchor-name: --site-nav;
  z-index: 2;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  padding: 0.75rem 1.25rem;
  border-bottom: 1px solid ${theme.line};
  background: ${theme.paper};
`

const Brand = styled(NavLink)`
  font-family: ${theme.serif};
  font-size: 1.25rem;
  font-weight: 700;
  color: ${theme.ink};
  text-decoration: none;
`

const Toggle = styled.button`
  display: none;
  min-width: 44px;
  min-height: 44px;
  padding: 0.5rem 0.75rem;
  border: 1px solid ${theme.line};
  border-radius: 6px;
  background: ${theme.card};
  color: ${theme.ink};
  font: inherit;
  cursor: pointer;
  @media ${theme.mobile} {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
  }
`

// A popover: on a phone the browser itself shows and hides it (the button's popovertarget), in
// the top layer just below the bar; on a desktop the same list is a plain row of links.
const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  @media ${theme.desktop} {
    position: static;
    display: flex;
    gap: 0.25rem 1.25rem;
    width: auto;
    height: auto;
    overflow: visible;
    border: 0;
    background: none;
    color: inherit;
  }
  @media ${theme.mobile} {
    &:popover-open {
      display: flex;
    }
    position: absolute;
    inset: auto;
    /* The bar's height, where anchor positioning is missing. */
    top: 4.3rem;
    left: 0;
    right: 0;
    flex-direction: column;
    width: auto;
    margin: 0;
    padding: 0.25rem 1.25rem 0.75rem;
    border: 0;
    border-bottom: 1px solid ${theme.line};
    background: ${theme.paper};
    color: ${theme.ink};
    box-shadow: 0 8px 16px rgb(0 0 0 / 12%);
    @supports (top: anchor(bottom)) {
      position-anchor: --site-nav;
      top: anchor(bottom);
    }
  }
  a {
    display: inline-block;
    padding: 0.6rem 0.25rem;
    color: ${theme.ink};
    text-decoration: none;
  }
  a[aria-current='page'] {
    color: ${theme.accent};
    text-decoration: underline;
  }
`

/**
 * The shared nav bar; below the mobile breakpoint a hamburger button toggles the links. The
 * browser opens and closes them (`popover`, `popovertarget`: it also tells assistive technology
 * whether they are expanded), with or without the app; React only closes them when a link
 * navigates in the page. Esc or a tap elsewhere closes them too.
 */
export function NavBar() {
  const {ownerName} = useSettings()
  const list = useRef<HTMLUListElement>(null)
  const close = () => {
    if (list.current?.matches(':popover-open')) list.current.hidePopover()
  }
  return (
    <Bar aria-label="Main">
      <Brand to="/" onClick={close}>
        {ownerName}
      </Brand>
      <Toggle type="button" popoverTarget="main-nav-links" aria-controls="main-nav-links">
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20">
          <path d="M2 4h16M2 10h16M2 16h16" stroke="currentColor" strokeWidth="2" />
        </svg>
        Menu
      </Toggle>
      <List id="main-nav-links" ref={list} popover="auto">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.to === '/'} onClick={close}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </List>
    </Bar>
  )
}
