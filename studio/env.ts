import type {AuthConfig} from 'sanity'

/** The lake's own project id (server/env.ts `localProjectId`); the browser cannot import server code. */
export const localProjectId = 'scriptorium'

/** A real sanity.io project when set at build time: the Studio is then a normal hosted Studio. */
export const hostedProjectId: string | undefined =
  import.meta.env.SANITY_STUDIO_PROJECT_ID || undefined

export const studioDataset: string = import.meta.env.SANITY_STUDIO_DATASET || 'production'

/** Path of the server's owner login page (server/lake/studio/login.ts). */
export const loginPath = '/studio-login'

/**
 * Local login: one provider, our own login page, which redirects back with `#sid=`; the Studio
 * exchanges it at /auth/fetch for a session token kept in localStorage (no cookies).
 */
export function localAuth(origin: string): AuthConfig {
  return {
    loginMethod: 'token',
    redirectOnSingle: false,
    providers: [{name: 'local', title: 'Owner password', url: `${origin}${loginPath}`}],
  }
}
