import type {AuthConfig} from 'sanity'
import {defaultDataset, studioLoginPath} from '../shared/constants.ts'

/** A real sanity.io project when set at build time: the Studio is then a normal hosted Studio. */
export const hostedProjectId: string | undefined =
  import.meta.env.SANITY_STUDIO_PROJECT_ID || undefined

export const studioDataset: string = import.meta.env.SANITY_STUDIO_DATASET || defaultDataset

/**
 * Local login: one provider, our own login page, which redirects back with `#sid=`; the Studio
 * exchanges it at /auth/fetch for a session token kept in localStorage (no cookies).
 */
export function localAuth(origin: string): AuthConfig {
  return {
    loginMethod: 'token',
    redirectOnSingle: false,
    providers: [{name: 'local', title: 'Owner password', url: `${origin}${studioLoginPath}`}],
  }
}
