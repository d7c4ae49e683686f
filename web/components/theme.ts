/** Colours and sizes shared by the styled components; contrast ratios checked against `paper`. */
export const theme = {
  paper: '#fbf7ef',
  card: '#fffdf8',
  ink: '#2b2520',
  muted: '#5b4f45',
  accent: '#8a3b12',
  accentDark: '#6d2d0c',
  line: '#d9cdbb',
  serif: "Georgia, 'Iowan Old Style', 'Palatino Linotype', 'Times New Roman', serif",
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  mono: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
  /** Below this width the nav collapses behind the hamburger button. */
  mobile: '(max-width: 767px)',
  desktop: '(min-width: 768px)',
}
