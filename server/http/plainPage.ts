import {escapeHtml} from '../html.ts'
import {scriptHash} from './securityHeaders.ts'

/** The pages' one stylesheet, inline so the page needs no other request. */
const pageStyle = `:root{color-scheme:light dark}body{font:1.125rem/1.6 Georgia,serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222;background:#fffdf8}a{color:#7a3b00}button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:999px;background:#8a3b12;color:#fff;cursor:pointer}@media (prefers-color-scheme:dark){body{color:#efe6da;background:#1c1815}a{color:#f0a070}button{background:#f0a070;color:#1c1815}}`

/**
 * The policy these pages are sent with (security review 3, I3): nothing runs, only the inline
 * style above (by its hash) and the favicon load, forms post only to this site, and, as the
 * site's own pages, only the site may frame them.
 */
export const plainPageSecurityPolicy = [
  "default-src 'none'",
  `style-src ${scriptHash(pageStyle)}`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ')

export interface PlainPageOptions {
  title: string
  /** Paragraphs of text (escaped here). */
  paragraphs: string[]
  /** `alert` for a refusal, `status` for news a screen reader should announce. */
  role?: 'alert' | 'status'
  /** A link back, e.g. to the form. */
  back?: {href: string; label: string}
  /** Extra markup after the paragraphs, already escaped by the caller (e.g. a form). */
  extraHtml?: string
}

/**
 * A plain, self-contained page for the server's few answers that are not site pages (the
 * contact relay's refusals, the newsletter's confirmations): no script, no external file,
 * light and dark.
 */
export function plainPage({title, paragraphs, role, back, extraHtml}: PlainPageOptions): string {
  const roleAttribute = role ? ` role="${role}"` : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)}</title>
<style>${pageStyle}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((text, i) => `<p${i === 0 ? roleAttribute : ''}>${escapeHtml(text)}</p>`).join('\n')}
${extraHtml ?? ''}
${back ? `<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>` : ''}
</main>
</body>
</html>
`
}
