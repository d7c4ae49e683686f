import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestServer} from '../../test/support/server.ts'
import {Lake, QueryPool} from '../lake/index.ts'
import {mountHealth} from './health.ts'
import {LakeReadiness, type ProbedLake} from './readiness.ts'

/** A GROQ evaluation of about 10 s over 400 zeros (server/lake/api/hostile.test.ts). */
const zeros = Array.from({length: 400}, () => 0)
const runaway = 'count($a[count($a[count($a[@==1])==0])>0])'

function healthApp(readiness: LakeReadiness): Hono {
  const app = new Hono()
  mountHealth(app, () => readiness.ready())
  return app
}

describe('/healthz and /readyz on the real server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer({SEED: '0'})
  })
  afterAll(() => server.stop())

  it('answer 200 with two words, whatever the Host, and reveal no version', async () => {
    for (const host of [undefined, 'evil.example', '203.0.113.7:80']) {
      const headers = host ? {host} : undefined
      const live = await fetch(`${server.url}/healthz`, {headers})
      expect([live.status, await live.text()]).toEqual([200, 'ok\n'])
      const ready = await fetch(`${server.url}/readyz`, {headers})
      expect([ready.status, await ready.text()]).toEqual([200, 'ready\n'])
      for (const answer of [live, ready]) {
        expect(answer.headers.get('cache-control')).toBe('no-store')
        expect(answer.headers.get('server')).toBeNull()
        expect(answer.headers.get('x-powered-by')).toBeNull()
      }
    }
  })

  it('share one probe among a burst of checks, all answered', async () => {
    const answers = await Promise.all(
      Array.from({length: 50}, () => fetch(`${server.url}/readyz`).then((r) => r.status)),
    )
    expect(new Set(answers)).toEqual(new Set([200]))
  })

  it('/readyz is 503 once the lake is closed, while /healthz stays 200', async () => {
    server.lake?.close()
    const ready = await fetch(`${server.url}/readyz`)
    expect([ready.status, await ready.text()]).toEqual([503, 'not ready\n'])
    expect(ready.headers.get('retry-after')).toBe('5')
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})

describe('in hosted mode (no local lake)', () => {
  it('/readyz answers 200 once the server is up', async () => {
    const server = await startTestServer({SEED: '0', SANITY_STUDIO_PROJECT_ID: 'abc123'})
    try {
      expect(server.lake).toBeUndefined()
      const ready = await fetch(`${server.url}/readyz`)
      expect([ready.status, await ready.text()]).toEqual([200, 'ready\n'])
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})

describe('/readyz and the query workers', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, {recursive: true, force: true})
  })

  it('is 503 when no query worker can start', async () => {
    // Workers that cannot open the database fail at every start: the pool is down, not busy.
    const pool = new QueryPool({database: () => join(tmpdir(), 'scriptorium-missing', 'lake.db')})
    const lake: ProbedLake = {
      open: true,
      queryJson: async (query, params, options) => {
        const result = await pool.run(
          {
            type: 'query',
            query,
            params,
            perspective: 'raw',
            reader: options.authenticated ? 'owner' : 'anonymous',
            maxResultBytes: 1024,
            sanity: {projectId: 'scriptorium', dataset: 'production'},
          },
          {...options, timeoutMs: 1_000},
        )
        return 'json' in result ? result.json : 'null'
      },
      poolStatus: () => pool.status(),
    }
    try {
      const answer = await healthApp(new LakeReadiness(lake, {timeoutMs: 500})).request('/readyz')
      expect(answer.status).toBe(503)
      expect(pool.status().ready).toBe(0)
    } finally {
      pool.close()
    }
  })

  it('stays 200 while every worker is busy with long queries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-readyz-'))
    dirs.push(dir)
    const lake = new Lake({dataDir: dir, projectId: 'scriptorium', dataset: 'production'})
    try {
      // The first probe starts the workers (a cold start), within the default 2 s.
      expect((await healthApp(new LakeReadiness(lake)).request('/readyz')).status).toBe(200)
      // Three owner queries of ~10 s take all three workers; the probe has to wait behind them.
      const long = Array.from({length: 3}, () =>
        lake.query(runaway, {a: zeros}, {authenticated: true}).catch(() => undefined),
      )
      await expect.poll(() => lake.poolStatus().busy, {timeout: 5_000}).toBe(3)
      // The verdict above is reused for a second: ask a fresh instance.
      const busy = await healthApp(new LakeReadiness(lake, {timeoutMs: 300})).request('/readyz')
      expect(busy.status).toBe(200)
      lake.close()
      await Promise.all(long)
    } finally {
      lake.close()
    }
  })
})
