import type {Hono} from 'hono'
import type {Lake} from './lake.ts'

// Placeholder until export lands (issue #2): GET /data/export/{dataset}.
export function registerExport(_app: Hono, _lake: Lake): void {}
