import {useState} from 'react'
import {NavLink} from 'react-router-dom'
import styled from 'styled-components'
import {owner} from '../content/site.ts'
import {theme} from './theme.ts'

const links = [
  {to: '/', label: 'Home'},
  {to: '/blog', label: 'Blog'},
  {to: '/service', label: 'Services'},
  {to: '/testimonial', label: 'Testimonials'},
  {to: '/contact', label: 'Contact'},
]

const Bar = styled.nav`
  position: relative;
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

const List = styled.ul<{$open: boolean}>`
  display: flex;
  gap: 0.25rem 1.25rem;
  margin: 0;
  padding: 0;
  list-style: none;
  @media ${theme.mobile} {
    display: ${(props) => (props.$open ? 'flex' : 'none')};
    flex-direction: column;
    width: 100%;
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

/** The shared nav bar; below the mobile breakpoint a hamburger button toggles the links. */
export function NavBar() {
  const [open, setOpen] = useState(false)
  return (
    <Bar aria-label="Main">
      <Brand to="/">{owner.name}</Brand>
      <Toggle
        type="button"
        aria-expanded={open}
        aria-controls="main-nav-links"
        onClick={() => setOpen(!open)}
      >
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20">
          <path d="M2 4h16M2 10h16M2 16h16" stroke="currentColor" strokeWidth="2" />
        </svg>
        Menu
      </Toggle>
      <List id="main-nav-links" $open={open}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.to === '/'} onClick={() => setOpen(false)}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </List>
    </Bar>
  )
}
