import type {Hono} from 'hono'
import type {Lake} from './lake.ts'

// Placeholder until the listener lands (issue #2): GET /data/listen/{dataset}.
export function registerListen(_app: Hono, _lake: Lake): {close(): void} {
  return {close() {}}
}
