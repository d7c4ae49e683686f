import {connect, type Socket} from 'node:net'

export interface RawAnswer {
  /** The status of the first response line, or undefined if the server answered nothing. */
  status: number | undefined
  /** Everything the server sent before it closed (or before `waitMs` passed). */
  text: string
  /** The server closed the connection within `waitMs`. */
  closed: boolean
}

/**
 * Sends bytes no HTTP client library would send (broken request lines, bad escapes, partial
 * headers) over a plain TCP connection on loopback, and collects the answer until the server
 * closes or `waitMs` passes.
 */
export function rawExchange(port: number, request: string, waitMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const finish = (closed: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      resolve({status: match ? Number(match[1]) : undefined, text, closed})
    }
    const timer = setTimeout(() => finish(false), waitMs)
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('close', () => finish(true))
    socket.on('error', () => finish(true))
    socket.write(request)
  })
}

/** Opens a connection and sends `partial` without ever finishing the request (slowloris). */
export function openPartial(port: number, partial: string, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({port, host: '127.0.0.1', localAddress}, () => {
      socket.write(partial)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/** Resolves when the server closes `socket`, with what it sent first. */
export function closedBy(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(text))
  })
}
