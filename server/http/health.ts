import type {Hono} from 'hono'

/** Probes are polled and must never be cached by a proxy in between. */
const headers = {'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8'}

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: `ready()` is
 * true). Mounted before every other middleware (server/app.ts), so they skip the Host check
 * (load balancers probe by IP), the refusal log and every per-client limit; their bodies are
 * two words, never data or versions (docs/deploy.md).
 */
export function mountHealth(app: Hono, ready: () => Promise<boolean>): void {
  app.get('/healthz', (c) => c.body('ok\n', 200, headers))
  app.get('/readyz', async (c) =>
    (await ready().catch(() => false))
      ? c.body('ready\n', 200, headers)
      : c.body('not ready\n', 503, {...headers, 'retry-after': '5'}),
  )
}
