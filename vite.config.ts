import {defineConfig} from 'vite'
import {studioViteConfig} from './studio/vite.studio.ts'
import {webViteConfig} from './web/vite.web.ts'

/**
 * Three builds from one config (scripts/build.ts runs them): the site's browser bundle,
 * its server renderer (`--ssr`), and the Studio (`--mode studio`) as an entry of its own so that
 * no Studio module can reach a public page's chunks.
 */
export default defineConfig(({mode, isSsrBuild}) =>
  mode === 'studio' ? studioViteConfig() : webViteConfig({ssr: isSsrBuild === true}),
)
