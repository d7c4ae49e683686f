import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Hono} from 'hono'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorResponse} from '../../http/errorResponse.ts'
import {importDocuments} from '../importer.ts'
import {Lake} from '../lake.ts'
import {registerDataApi} from './dataApi.ts'

// Query limits, driven in process: a lake with a small time and result budget behind the routes.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-limits-'))
let lake: Lake
let app: Hono

beforeAll(() => {
  lake = new Lake({
    dataDir,
    projectId: 'scriptorium',
    dataset: 'production',
    token: 'tok',
    // Time enough for the 3,000-item scans below on a loaded machine; the runaway query needs far more.
    queryLimits: {timeoutMs: 1000, maxResultBytes: 20_000},
  })
  importDocuments(
    lake,
    Array.from({length: 3000}, (_, i) => ({
      _id: `d${i}`,
      _type: 'item',
      n: i,
      text: `item number ${i}`,
    })),
  )
  app = new Hono()
  app.onError((error, c) => errorResponse(error, c))
  registerDataApi(app, lake)
})
afterAll(() => {
  lake.close()
  rmSync(dataDir, {recursive: true, force: true})
})

const query = async (groq: string): Promise<Response> =>
  app.request(`/v2023-07-29/data/query/production?query=${encodeURIComponent(groq)}`, {
    headers: {authorization: 'Bearer tok'},
  })

describe('query limits', () => {
  it('stops a query that runs past the time limit with a clear 4xx', async () => {
    const started = Date.now()
    // 3000 × 3000 comparisons: far beyond the time limit.
    const res = await query('*[_type == "item"]{n, "bigger": count(*[_type == "item" && n > ^.n])}')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      error: {type: 'queryTimeout', description: expect.stringContaining('time limit')},
    })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('keeps serving while a runaway query runs, and answers the queries queued behind it', async () => {
    let runawayDone = false
    const runaway = query('*[_type == "item"]{"c": count(*[n > ^.n])}').then((res) => {
      runawayDone = true
      return res
    })
    const light = query('*[_id == "d7"][0].n')
    const doc = await app.request('/v2023-07-29/data/doc/production/d1', {
      headers: {authorization: 'Bearer tok'},
    })
    expect(doc.status).toBe(200)
    expect(runawayDone).toBe(false)
    expect((await runaway).status).toBe(400)
    const answer = await light
    expect(answer.status).toBe(200)
    expect((await answer.json()).result).toBe(7)
  })

  it('refuses a result over the size limit with a clear 4xx', async () => {
    const res = await query('*[_type == "item"]')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      error: {description: expect.stringContaining('larger than 20000 bytes')},
    })
  })

  it('still answers queries within the limits afterwards', async () => {
    const res = await query('*[_type == "item"] | order(n desc) [0...2].n')
    expect(res.status).toBe(200)
    expect((await res.json()).result).toEqual([2999, 2998])
  })
})
