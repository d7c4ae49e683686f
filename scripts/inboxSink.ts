import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import {isRecord} from '../server/util/isRecord.ts'

/** Bodies above this are refused (413): an activity is a few KiB. */
const maxBody = 1024 * 1024

export interface SinkPost {
  /** The inbox's path, e.g. `/users/7/inbox` or `/shared/2`. */
  inbox: string
  /** The activity's `id` (and type), as the receiver deduplicates by it. */
  id: string
  type: string
  /** The `object`'s id (or the object itself when it is a string). */
  objectId: string | undefined
  /** When it arrived (ms since the epoch). */
  at: number
}

/**
 * Many fediverse inboxes on one loopback server, for the delivery tests and the bench: any
 * `POST` path is an inbox. It records every raw POST, and counts an activity once per inbox by
 * its id, as a Fedify or Mastodon receiver does (a resend of the same id is not a new delivery).
 * It checks no signature: what is measured is what the site sends, not the receiver's work.
 */
export class InboxSink {
  /** Requests other than POST (a receiver fetching a key or an actor from here), by path. */
  readonly fetches: string[] = []
  /** Every POST in arrival order, resends included. */
  readonly posts: SinkPost[] = []
  /** The answer for a POST (default 202); `'hold'` never answers it (a crash test's window). */
  answer: (post: SinkPost, n: number) => number | 'hold' = () => 202
  private readonly server = createServer((req, res) => void this.handle(req, res))
  private readonly waiters = new Set<() => void>()
  private held: ServerResponse[] = []
  url = ''

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    const address = this.server.address()
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    return this
  }

  /** The distinct activities (by id) of `type` about `objectId` that `inbox` took. */
  takenOf(inbox: string, type: string, objectId: string): number {
    const of = this.posts.filter(
      (p) => p.inbox === inbox && p.type === type && p.objectId === objectId,
    )
    return new Set(of.map((p) => p.id)).size
  }

  /** The raw POSTs of `type` about `objectId`, per inbox. */
  postsOf(type: string, objectId: string): Map<string, number> {
    const out = new Map<string, number>()
    for (const p of this.posts)
      if (p.type === type && p.objectId === objectId) out.set(p.inbox, (out.get(p.inbox) ?? 0) + 1)
    return out
  }

  /** Resolves once `test` holds (checked now, then after each POST). */
  until(test: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      if (test()) return resolve()
      const check = () => {
        if (!test()) return
        this.waiters.delete(check)
        resolve()
      }
      this.waiters.add(check)
    })
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      this.fetches.push(req.url ?? '/')
      return void res.writeHead(404).end()
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBody) return void res.writeHead(413).end()
      chunks.push(chunk)
    }
    let json: unknown
    try {
      json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return void res.writeHead(400).end()
    }
    if (!isRecord(json)) return void res.writeHead(400).end()
    const object = json.object
    const post: SinkPost = {
      at: Date.now(),
      inbox: new URL(req.url ?? '/', this.url).pathname,
      id: String(json.id),
      type: String(json.type),
      objectId:
        typeof object === 'string'
          ? object
          : isRecord(object) && object.id !== undefined
            ? String(object.id)
            : undefined,
    }
    this.posts.push(post)
    const status = this.answer(post, this.posts.length)
    for (const wake of [...this.waiters]) wake()
    if (status === 'hold') {
      this.held.push(res)
      res.on('close', () => (this.held = this.held.filter((r) => r !== res)))
      return
    }
    res.writeHead(status).end()
  }
}
