import {connect} from 'node:http2'
import {describe, expect, it} from 'vitest'
import {startTestServer} from '../test/support/server.ts'
import {sseReader} from '../test/support/sseReader.ts'

// The app's HTTPS listener (server/start.ts) speaks HTTP/2 to the Studio, and its graceful stop
// ends the lake's listen streams (just ends them: after `disconnect` a client never reconnects): the whole process, so the whole app.
describe('listener over HTTP/2 (how the Studio connects)', () => {
  it('streams events, and ends them without disconnect when the server stops (the Studio reconnects)', async () => {
    const server = await startTestServer({SEED: '0'})
    const session = connect(server.httpsUrl, {rejectUnauthorized: false})
    try {
      const request = session.request({
        ':path': '/v2025-02-19/data/listen/production?query=*',
        authorization: `Bearer ${server.lake!.token}`,
      })
      const headers = await new Promise<Record<string, unknown>>((resolve) =>
        request.once('response', resolve),
      )
      expect(headers[':status']).toBe(200)
      const next = sseReader(request)
      expect(await next()).toMatchObject({event: 'welcome'})
      await server.lake!.mutate([{create: {_id: 'h2', _type: 'wire'}}])
      expect(await next()).toMatchObject({event: 'mutation', data: {documentId: 'h2'}})
      const stopping = server.stop()
      await expect(next()).rejects.toThrow('stream ended')
      session.close()
      await stopping
    } finally {
      session.destroy()
      await server.stop()
    }
  })
})
