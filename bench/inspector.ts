/**
 * The V8 heap of a server process as the process itself sees it (`process.memoryUsage()`), after a
 * full GC, read over the inspector protocol: RSS alone cannot tell a leak from a heap V8 has
 * grown and keeps. The server must run with `inspectorOptions(port)` in NODE_OPTIONS; the
 * inspector listens on loopback only.
 */

export interface HeapFigures {
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
}

export function inspectorOptions(port: number): string {
  return `--inspect=127.0.0.1:${port} --expose-gc`
}

export interface HeapProbe {
  /** Runs a full GC in the server, then reads its memory usage. */
  afterGc(): Promise<HeapFigures>
  close(): void
}

export async function connectHeapProbe(port: number): Promise<HeapProbe> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string
  }>
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, {once: true})
    socket.addEventListener('error', reject, {once: true})
  })
  let nextId = 0
  const pending = new Map<number, (value: string) => void>()
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number
      result?: {result?: {value?: string}}
    }
    if (message.id !== undefined) pending.get(message.id)?.(message.result?.result?.value ?? '')
  })
  const evaluate = (expression: string) =>
    new Promise<string>((resolve) => {
      const id = ++nextId
      pending.set(id, resolve)
      socket.send(
        JSON.stringify({id, method: 'Runtime.evaluate', params: {expression, returnByValue: true}}),
      )
    })
  return {
    async afterGc() {
      await evaluate('gc()')
      return JSON.parse(await evaluate('JSON.stringify(process.memoryUsage())')) as HeapFigures
    },
    close: () => socket.close(),
  }
}
