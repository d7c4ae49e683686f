import {apiVersion, defaultDataset, localProjectId} from './constants.ts'

/**
 * What the public site needs to know about its deployment, resolved once on the server and
 * handed to the browser inside the HTML (never through build-time env), so one build serves
 * both the local lake and a hosted Sanity project.
 */
export interface SiteConfig {
  /** 'local': this server's lake; 'hosted': a sanity.io project (SANITY_STUDIO_PROJECT_ID). */
  mode: 'local' | 'hosted'
  projectId: string
  dataset: string
  apiVersion: string
  /** Absolute origin for canonical links, without trailing slash. */
  siteUrl: string
  /** Where the contact form posts: the local relay or a third party (CONTACT_ACTION). */
  contactAction: string
  editingSamplesUrl: string
  /**
   * Where the subscribe form posts (server/newsletter/), or null when subscriptions are off
   * (no SMTP_URL, or hosted mode): the form and the footer's Subscribe link are then not shown.
   */
  subscribeAction: string | null
  /** The site is an account on the social web (server/social/): the pages link its actor. */
  socialWeb: boolean
}

export const localContactAction = '/api/contact'
export const defaultEditingSamplesUrl = 'https://docs.google.com/document/d/editing-samples'

export interface SiteEnv {
  /** SANITY_STUDIO_PROJECT_ID: set means hosted mode. */
  hostedProjectId?: string
  siteUrl: string
  contactAction?: string
  editingSamplesUrl?: string
  /** True when the server takes subscriptions (server/newsletter/settings.ts). */
  subscriptions?: boolean
  /**
   * True when the server is on the social web (server/context.ts `socialWebEnabled`); when
   * unsaid, on with the local lake and off in hosted mode (which needs a write token).
   */
  socialWeb?: boolean
}

/** The newsletter's subscribe endpoint (server/newsletter/routes.ts). */
export const subscribePath = '/api/subscribe'
/** The links in its mails: confirm a subscription, leave it. */
export const confirmPath = '/api/subscribe/confirm'
export const unsubscribePath = '/api/unsubscribe'
/** An address and a honeypot fit in far less; anything bigger is not a subscription. */
export const maxSubscribeBodyBytes = 4 * 1024

/** Resolves the site's configuration from the server's environment, with the spec's defaults. */
export function resolveSiteConfig(env: SiteEnv): SiteConfig {
  const hosted = Boolean(env.hostedProjectId)
  return {
    mode: hosted ? 'hosted' : 'local',
    projectId: env.hostedProjectId || localProjectId,
    // The spec fixes the site's dataset to 'production' in both modes.
    dataset: defaultDataset,
    apiVersion,
    siteUrl: env.siteUrl.replace(/\/+$/, ''),
    contactAction: env.contactAction || localContactAction,
    editingSamplesUrl: env.editingSamplesUrl || defaultEditingSamplesUrl,
    subscribeAction: env.subscriptions ? subscribePath : null,
    socialWeb: env.socialWeb ?? !hosted,
  }
}

/** Options for @sanity/client: the spec's settings, pointed at the local lake or at sanity.io. */
export interface SiteClientConfig {
  projectId: string
  dataset: string
  apiVersion: string
  useCdn: true
  apiHost?: string
  useProjectHostname?: false
  /** Server only: the lake's internal credential (server/lake/api/internal.ts), never in a page. */
  headers?: Record<string, string>
}

/**
 * `origin` is where the local lake is reachable: the page's own origin in the browser, the
 * process's internal origin on the server. It is ignored in hosted mode (api.sanity.io / apicdn).
 * `headers` go only to the local lake: the server's renders send its internal credential.
 */
export function siteClientConfig(
  site: SiteConfig,
  origin: string,
  headers?: Record<string, string>,
): SiteClientConfig {
  const base = {
    projectId: site.projectId,
    dataset: site.dataset,
    apiVersion: site.apiVersion,
    useCdn: true as const,
  }
  if (site.mode === 'hosted') return base
  return {...base, apiHost: origin, useProjectHostname: false, ...(headers ? {headers} : {})}
}

/**
 * Where the browser's content reads go in preview mode: the site's own server, which checks the
 * preview cookie and forwards them with a credential the browser never holds (server/preview/).
 */
export const previewContentPath = '/api/preview/content'

/** Options for @sanity/client in preview mode: drafts overlaid on published, never a CDN. */
export interface PreviewClientConfig {
  projectId: string
  dataset: string
  apiVersion: string
  useCdn: false
  perspective: 'drafts'
  apiHost?: string
  useProjectHostname?: false
  headers?: Record<string, string>
}

/**
 * `apiHost` is the local lake (server, local mode), the preview proxy (browser, either mode) or
 * undefined for sanity.io (server, hosted mode); `headers` carry the server's preview credential.
 */
export function previewClientConfig(
  site: SiteConfig,
  apiHost: string | undefined,
  headers?: Record<string, string>,
): PreviewClientConfig {
  return {
    projectId: site.projectId,
    dataset: site.dataset,
    apiVersion: site.apiVersion,
    useCdn: false,
    perspective: 'drafts',
    ...(apiHost === undefined ? {} : {apiHost, useProjectHostname: false as const}),
    ...(headers ? {headers} : {}),
  }
}
