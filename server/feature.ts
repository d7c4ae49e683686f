import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'

/**
 * What a feature (lake, studio, contact, discovery, site) hands back after registering its
 * routes on the shared app: how to stop it, and optionally a WebSocket upgrade handler.
 */
export interface Feature {
  close?(): void | Promise<void>
  /** Takes a WebSocket upgrade request; returns false if the path is not its own. */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
}
