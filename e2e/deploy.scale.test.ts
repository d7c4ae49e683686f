import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {startServerProcess, type ServerProcess} from '../bench/serverProcess.ts'
import {nodeRequest} from '../server/http/testing/nodeRequest.ts'
import {caddyPorts, startCaddy, type RunningCaddy} from './support/caddy.ts'

// deploy/Caddyfile.scale on loopback: Caddy (tls internal) in front of one content process
// (SERVE_SITE=0) and two site processes (LAKE_URL), each `node server/main.ts` as the systemd
// units run them. Stopping one site process must lose no request Caddy could retry.

let caddy: RunningCaddy
let content: ServerProcess
let sites: ServerProcess[] = []

const through = (path: string) => nodeRequest(`${caddy.origin}${path}`)

describe('behind Caddy: one content process, two site processes', () => {
  beforeAll(async () => {
    const ports = await caddyPorts()
    const common = {
      SITE_URL: `https://localhost:${ports.port}`,
      TRUST_PROXY: 'loopback',
      HTTPS_PORT: 'off',
    }
    content = await startServerProcess({
      env: {...common, SERVE_SITE: '0', LAKE_TOKEN: randomBytes(24).toString('base64url')},
    })
    sites = await Promise.all(
      [0, 1].map(() => startServerProcess({env: {...common, LAKE_URL: content.url}})),
    )
    const host = (process: ServerProcess) => new URL(process.url).host
    caddy = await startCaddy({
      ...ports,
      upstream: host(content),
      sites: [host(sites[0]), host(sites[1])],
    })
    await vi.waitFor(
      async () => {
        for (const site of sites) expect((await fetch(`${site.url}/readyz`)).status).toBe(200)
      },
      {timeout: 20_000, interval: 50},
    )
  }, 90_000)

  afterAll(async () => {
    await caddy?.stop()
    await Promise.all([...sites, content].map((process) => process?.stop()))
  })

  it('pages come from the site processes, the Studio and the API from the content process', async () => {
    const blog = await through('/blog')
    expect(blog.status).toBe(200)
    expect(blog.headers['x-cache']).toMatch(/^(HIT|MISS)$/)
    expect(blog.body).toContain(`<link rel="canonical" href="${caddy.origin}/blog"/>`)
    const studio = await through('/studio/')
    expect(studio.status).toBe(200)
    const query = await through('/v2023-07-29/data/query/production?query=count(*)')
    expect(query.status).toBe(200)
    expect(JSON.parse(query.body)).toMatchObject({result: expect.any(Number) as number})
  })

  it('stopping one site process loses no request: Caddy retries it on the other', async () => {
    const paths = ['/blog', '/services', '/', '/testimonials', '/contact']
    for (const path of paths) expect((await through(path)).status).toBe(200)
    const statuses: number[] = []
    let stopped = false
    // Four visitors asking in turn, before, during and after the stop.
    const visitor = async (offset: number) => {
      for (let i = 0; i < 40; i++) {
        const answer = await through(paths[(i + offset) % paths.length])
        statuses.push(answer.status)
        if (stopped && i > 30) break
      }
    }
    const load = Promise.all([0, 1, 2, 3].map(visitor))
    await vi.waitFor(() => expect(statuses.length).toBeGreaterThan(20), {timeout: 10_000})
    await sites[0].stop()
    stopped = true
    await load
    expect(statuses.length).toBeGreaterThan(40)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
  }, 60_000)
})
