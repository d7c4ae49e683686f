import type {ServerConfig} from './env.ts'
import type {Lake} from './lake/index.ts'

/** What every feature of the one server process shares. */
export interface AppContext {
  config: ServerConfig
  /** The local Content Lake; undefined in hosted mode (SANITY_STUDIO_PROJECT_ID set). */
  lake: Lake | undefined
  /**
   * Origin (http://127.0.0.1:port) through which this process reaches its own lake over HTTP,
   * known once the server listens; the SSR loaders point @sanity/client at it.
   */
  internalOrigin(): string
  /** Calls `listener` after every committed content transaction (render caches, feeds). */
  onContentChange(listener: () => void): () => void
}
