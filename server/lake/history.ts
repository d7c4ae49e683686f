import type {Hono} from 'hono'
import type {Lake} from './lake.ts'

// Placeholder until history lands (issue #2): /data/history/{dataset}/...
export function registerHistory(_app: Hono, _lake: Lake): void {}
