import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'

// Placeholder until issue #3 the public site lands.
export function mountSite(_app: Hono, _ctx: AppContext): Feature | void {}
