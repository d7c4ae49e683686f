import {createGlobalStyle} from 'styled-components'
import {paletteVariables, theme} from './theme.ts'

/** Page-wide typography: system fonts only (no webfont download delays the first paint). */
export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  :root { color-scheme: light dark; ${paletteVariables('light')} }
  @media (prefers-color-scheme: dark) {
    :root { ${paletteVariables('dark')} }
  }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    background: ${theme.paper};
    color: ${theme.ink};
    font-family: ${theme.sans};
    font-size: 1.0625rem;
    line-height: 1.6;
  }
  h1, h2, h3, h4, h5, h6 { font-family: ${theme.serif}; line-height: 1.25; margin: 1.5em 0 0.5em; }
  h1 { font-size: 2.25rem; margin-top: 0.5em; }
  h2 { font-size: 1.6rem; }
  a { color: ${theme.accent}; text-underline-offset: 0.15em; }
  a:hover { color: ${theme.accentDark}; }
  :focus-visible { outline: 3px solid ${theme.accent}; outline-offset: 2px; }
  img { max-width: 100%; }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
    overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  @media (prefers-reduced-motion: reduce) {
    /* Near-instant, not none: an animation's delay still counts (the toast hides after 4000 ms). */
    *, *::before, *::after {
      transition-duration: 0.01ms !important;
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
    }
  }
`
