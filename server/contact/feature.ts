import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'

// Placeholder until issue #5 contact relay lands.
export function mountContact(_app: Hono, _ctx: AppContext): Feature | void {}
