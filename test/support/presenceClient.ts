import WebSocket from 'ws'

export type PresenceMessage = {
  id?: string
  result?: unknown
  error?: {code: number}
  method?: string
  params?: {subscription: string; result: Record<string, unknown>}
}

/**
 * A bifur client (the Studio's presence socket) on `base`, an http(s) origin: over ws, or over
 * wss with `ca` (the server's own certificate) as the trust anchor.
 */
export class PresenceClient {
  readonly ws: WebSocket
  readonly messages: PresenceMessage[] = []
  private waiters: Array<() => void> = []
  private next = 0

  constructor(base: string, options: {origin: string; localAddress?: string; ca?: Buffer}) {
    this.ws = new WebSocket(
      `${base.replace(/^http/, 'ws')}/v2022-06-30/socket/production?tag=sanity.studio`,
      options,
    )
    this.ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as PresenceMessage)
      for (const wake of this.waiters.splice(0)) wake()
    })
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('error', reject)
    })
  }

  async until(match: (m: PresenceMessage) => boolean): Promise<PresenceMessage> {
    for (;;) {
      const found = this.messages.find(match)
      if (found) return found
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    }
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<PresenceMessage> {
    const id = `r${this.next++}`
    this.ws.send(
      JSON.stringify({jsonrpc: '2.0', method, params: {...params, apiVersion: 'v1'}, id}),
    )
    return this.until((m) => m.id === id)
  }
}
