import type {UserConfig} from 'vite'

// Placeholder until issue #4 lands: the Studio's build.
export function studioViteConfig(): UserConfig {
  return {}
}
