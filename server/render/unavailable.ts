import {retryWording} from '../http/formRefusal.ts'

/** How long a visitor (or a proxy in front) is asked to wait when the content store is away. */
export const storeRetryAfterSeconds = 5

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back in a moment</title></head>
<body>
<main>
<h1>Back in a moment</h1>
<p>This page cannot be shown right now: the site is briefly out of touch with its content.
${retryWording(storeRetryAfterSeconds)}</p>
<p><a href="/">Home</a></p>
</main>
</body>
</html>
`

/**
 * The answer for a page the site has no copy of while its content store cannot be reached: a
 * 503 a proxy may retry elsewhere, with Retry-After, and a short page a visitor can read. It has
 * no script and no style, so its CSP allows nothing.
 */
export function storeUnavailable(head = false): Response {
  return new Response(head ? null : page, {
    status: 503,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': String(storeRetryAfterSeconds),
      'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'",
      'x-content-type-options': 'nosniff',
      'x-cache': 'MISS',
    },
  })
}
