import {escapeHtml} from '../../html.ts'

/** No scripts, no external resources, not frameable, not indexed. */
export const loginPageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
}

/**
 * The owner's login form for the local Studio: one password field (the owner token). `origin`
 * is where the Studio wants to return, already checked by the caller.
 */
export function loginPage(options: {action: string; origin: string; error?: string}): string {
  const error = options.error
    ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Log in to the Studio · Scriptorium</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f6f6f8; color: #1b1d21; margin: 0; }
  main { max-width: 22rem; margin: 12vh auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid #888; border-radius: 4px; }
  button { margin-top: 1rem; width: 100%; padding: .6rem; font: inherit; font-weight: 600; color: #fff; background: #2243b6; border: 0; border-radius: 4px; cursor: pointer; }
  .error { color: #b00020; }
  .hint { color: #555; font-size: .875rem; }
</style>
</head>
<body>
<main>
<h1>Log in to the Studio</h1>
${error}
<form method="post" action="${escapeHtml(options.action)}">
  <input type="hidden" name="origin" value="${escapeHtml(options.origin)}">
  <label for="password">Owner password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
  <button type="submit">Log in</button>
</form>
<p class="hint">The password is the lake's owner token: <code>LAKE_TOKEN</code>, or the file <code>owner-token</code> in the data directory.</p>
</main>
</body>
</html>
`
}
