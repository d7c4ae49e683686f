import {resolve} from 'node:path'

/** The lake's own project id when no hosted Sanity project is configured. */
export const localProjectId = 'scriptorium'
export const dataset = 'production'
/** The API version the public site speaks (the spec's). */
export const siteApiVersion = '2023-07-29'

export interface ServerConfig {
  port: number
  httpsPort: number
  host: string
  dataDir: string
  /** Seed an empty data dir from content/ on first start. */
  seed: boolean
  /** Owner token from env; otherwise generated into the data dir. */
  lakeToken: string | undefined
  /** Absolute origin for canonical links, feeds and the sitemap, without trailing slash. */
  siteUrl: string
  tlsCert: string | undefined
  tlsKey: string | undefined
  /** Hosted Sanity project id; undefined means the local lake. */
  hostedProjectId: string | undefined
  projectId: string
  dataset: string
  smtpUrl: string | undefined
  contactTo: string | undefined
  /** A third-party form relay (e.g. FormSubmit) the contact form posts to instead of ours. */
  contactAction: string | undefined
  editingSamplesUrl: string
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be a port number, got "${value}"`)
  return n
}

/** Reads the server's configuration from the environment, with the documented defaults. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const p = port(env.PORT, 3000, 'PORT')
  const hostedProjectId = env.SANITY_STUDIO_PROJECT_ID || undefined
  return {
    port: p,
    httpsPort: port(env.HTTPS_PORT, 3443, 'HTTPS_PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    seed: env.SEED !== '0',
    lakeToken: env.LAKE_TOKEN || undefined,
    siteUrl: (env.SITE_URL || `http://localhost:${p}`).replace(/\/+$/, ''),
    tlsCert: env.TLS_CERT || undefined,
    tlsKey: env.TLS_KEY || undefined,
    hostedProjectId,
    projectId: hostedProjectId ?? localProjectId,
    dataset: env.SANITY_STUDIO_DATASET || dataset,
    smtpUrl: env.SMTP_URL || undefined,
    contactTo: env.CONTACT_TO || undefined,
    contactAction: env.CONTACT_ACTION || undefined,
    editingSamplesUrl:
      env.EDITING_SAMPLES_URL || 'https://docs.google.com/document/d/editing-samples',
  }
}
