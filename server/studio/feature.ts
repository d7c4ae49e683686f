import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'

// Placeholder until issue #4 the Studio lands.
export function mountStudio(_app: Hono, _ctx: AppContext): Feature | void {}
