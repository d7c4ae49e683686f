import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {createApp} from './app.ts'
import {readConfig} from './env.ts'
import {ContentEvents} from './live/contentEvents.ts'

// The app without a lake (hosted mode), plus one route whose handler has a bug.
const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-app-'))
afterAll(() => rmSync(dataDir, {recursive: true, force: true}))
const {app} = createApp({
  config: readConfig({SANITY_STUDIO_PROJECT_ID: 'abc123', DATA_DIR: dataDir}),
  lake: undefined,
  internalOrigin: () => 'http://127.0.0.1:1',
  contentOrigin: () => 'http://127.0.0.1:1',
  contentHeaders: () => ({}),
  contentEvents: new ContentEvents(),
})
app.post('/buggy', () => {
  throw new TypeError('a bug')
})

describe('a handler that throws', () => {
  it('is a Sanity-shaped 500, and the next request is served', async () => {
    const res = await app.request('http://localhost/buggy', {method: 'POST'})
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({
      error: {type: 'internalServerError', description: 'Internal server error'},
    })
    const again = await app.request('http://localhost/buggy', {method: 'POST'})
    expect(again.status).toBe(500)
  })
})
