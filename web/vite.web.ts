import type {UserConfig} from 'vite'

// Placeholder until issue #3 lands: the site's client and SSR builds.
export function webViteConfig(_options: {ssr: boolean}): UserConfig {
  return {}
}
