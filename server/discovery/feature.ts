import type {Hono} from 'hono'
import type {AppContext} from '../context.ts'
import type {Feature} from '../feature.ts'

// Placeholder until issue #6 sitemap, robots, feeds lands.
export function mountDiscovery(_app: Hono, _ctx: AppContext): Feature | void {}
