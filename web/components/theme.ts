/**
 * The palette in both colour schemes: light is the seed's paper and ink, dark keeps its warm hues
 * for `prefers-color-scheme: dark`. Contrast ratios are checked by axe in both
 * (e2e/site.a11y.test.ts); text colours are checked against `paper` and `card`, `onAccent`
 * against `accent` and `accentDark`.
 */
export const palettes = {
  light: {
    paper: '#fbf7ef',
    card: '#fffdf8',
    ink: '#2b2520',
    muted: '#5b4f45',
    accent: '#8a3b12',
    accentDark: '#6d2d0c',
    onAccent: '#ffffff',
    line: '#d9cdbb',
    field: '#8c7b68',
    codeBackground: '#efe6d6',
    error: '#9b1c1c',
  },
  dark: {
    paper: '#1c1815',
    card: '#26201b',
    ink: '#efe6da',
    muted: '#c9baa9',
    accent: '#f0a070',
    accentDark: '#f7c09a',
    onAccent: '#1c1815',
    line: '#4a3f35',
    field: '#9a8877',
    codeBackground: '#362c24',
    error: '#ff9b8f',
  },
} as const

type ColourName = keyof (typeof palettes)['light']

/** `--paper: #fbf7ef; …` for one scheme, set on :root by GlobalStyle. */
export function paletteVariables(scheme: keyof typeof palettes): string {
  return Object.entries(palettes[scheme])
    .map(([name, value]) => `--${name}: ${value};`)
    .join(' ')
}

const colour = (name: ColourName) => `var(--${name})`

/** Colours (CSS custom properties, so one stylesheet serves both schemes) and sizes. */
export const theme = {
  paper: colour('paper'),
  card: colour('card'),
  ink: colour('ink'),
  muted: colour('muted'),
  accent: colour('accent'),
  accentDark: colour('accentDark'),
  onAccent: colour('onAccent'),
  line: colour('line'),
  field: colour('field'),
  codeBackground: colour('codeBackground'),
  error: colour('error'),
  serif: "Georgia, 'Iowan Old Style', 'Palatino Linotype', 'Times New Roman', serif",
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  mono: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
  /** Below this width the nav collapses behind the hamburger button. */
  mobile: '(max-width: 767px)',
  desktop: '(min-width: 768px)',
}
