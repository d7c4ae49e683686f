import {describe, expect, it} from 'vitest'
import {readConfig} from '../env.ts'
import {studioContentSecurityPolicy} from './contentSecurityPolicy.ts'

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((part) => part.startsWith(`${name} `))
    ?.slice(name.length + 1)

describe("the Studio's Content-Security-Policy", () => {
  it('runs only its own script files, local or hosted: no inline script, no eval', () => {
    for (const env of [{}, {SANITY_STUDIO_PROJECT_ID: 'abc123'}]) {
      const policy = studioContentSecurityPolicy(readConfig({...env, HTTPS_PORT: '3443'}))
      expect(directive(policy, 'script-src')).toBe("'self'")
      expect(directive(policy, 'object-src')).toBe("'none'")
      expect(directive(policy, 'frame-ancestors')).toBe("'self'")
      expect(directive(policy, 'default-src')).toBe("'self'")
    }
  })

  it('lets a local Studio reach its own origin and the SDK’s <projectId>.localhost only', () => {
    const policy = studioContentSecurityPolicy(readConfig({HTTPS_PORT: '3443'}))
    expect(directive(policy, 'connect-src')).toBe(
      "'self' https://localhost:3443 https://127.0.0.1:3443 https://scriptorium.localhost:3443",
    )
    expect(policy).not.toContain('https:;')
  })
})
