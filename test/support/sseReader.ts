/**
 * A test's view of a server-sent-events stream, as the Studio's EventSource reads it: the lake's
 * listener tests (server/lake/api/listen.stream.test.ts) and the app's HTTP/2 listener test
 * (server/start.test.ts) read events with it.
 */
export type SseEvent = {event?: string; id?: string; data?: unknown; comment?: string}

/** Parses a byte stream into SSE events (comments included, for the keep-alive check). */
export function sseReader(chunks: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>) {
  // Node's web ReadableStream is async-iterable at runtime; the DOM typings do not say so.
  const iterator = (chunks as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]()
  const decoder = new TextDecoder()
  let buffer = ''
  const queue: SseEvent[] = []
  const next = async (): Promise<SseEvent> => {
    while (queue.length === 0) {
      const {done, value} = await iterator.next()
      if (done) throw new Error('stream ended')
      buffer += typeof value === 'string' ? value : decoder.decode(value, {stream: true})
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        // `retry:` alone sets EventSource's reconnect delay and is no event.
        if (block.split('\n').every((line) => line.startsWith('retry:'))) continue
        const event: SseEvent = {}
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.comment = line.slice(1).trim()
          else if (line.startsWith('event: ')) event.event = line.slice(7)
          else if (line.startsWith('id: ')) event.id = line.slice(4)
          else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6))
        }
        queue.push(event)
      }
    }
    return queue.shift()!
  }
  // Returning from the iterator cancels the body, as a client going away does.
  return Object.assign(next, {cancel: async () => void (await iterator.return?.())})
}
