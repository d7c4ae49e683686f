import {join, resolve} from 'node:path'
import type {TrustProxy} from './http/clientAddress.ts'
import {defaultDataset, localProjectId} from '../shared/constants.ts'
import {
  defaultSessionIdleHours,
  defaultSessionMaxDays,
  minLakeTokenLength,
} from '../shared/ownerAccess.ts'
import {weakTokenReason} from './util/tokenStrength.ts'

/** Defined once in shared/constants.ts; re-exported for the server's wiring and its tests. */
export {defaultDataset as dataset, localProjectId}

export interface ServerConfig {
  port: number
  httpsPort: number
  /**
   * `HTTPS_PORT=off`: no HTTPS listener; a TLS proxy in front serves the Studio over HTTP/2
   * (docs/deploy.md). 0 still means a free port.
   */
  httpsListener: boolean
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
  /**
   * SANITY_API_READ_TOKEN (hosted mode only): a sanity.io Viewer token the site's server reads
   * drafts with in preview mode (docs/hosted.md). Never sent to a browser.
   */
  hostedReadToken: string | undefined
  /**
   * SANITY_API_WRITE_TOKEN (hosted mode only): a sanity.io Editor token the social web keeps its
   * followers, comments and reactions with in the hosted dataset (docs/hosted.md); else read
   * from DATA_DIR/sanity-write-token (mode 0600). Never sent to a browser.
   */
  hostedWriteToken: string | undefined
  projectId: string
  dataset: string
  smtpUrl: string | undefined
  contactTo: string | undefined
  /** A third-party form relay (e.g. FormSubmit) the contact form posts to instead of ours. */
  contactAction: string | undefined
  editingSamplesUrl: string
  /** `TRUST_PROXY`: whose X-Forwarded-For/-Proto to believe (server/http/clientAddress.ts). */
  trustProxy: TrustProxy
  /** `ALLOWED_HOSTS`: Host names accepted besides SITE_URL's, localhost and loopback. */
  allowedHosts: string[]
  /** Studio sessions end after this long unused (`SESSION_IDLE_HOURS`, default 168). */
  sessionIdleMs: number
  /** ... and this long after login, used or not (`SESSION_MAX_DAYS`, default 30). */
  sessionMaxMs: number
  /** `BACKUP_DIR`: where automatic backups go (default DATA_DIR/backups; docs/operations.md). */
  backupDir: string
  /** `BACKUP_INTERVAL_MINUTES`: between automatic backups (default 1440, fractions allowed; 0 = off). */
  backupIntervalMinutes: number
  /** `BACKUP_KEEP`: automatic backups kept (default 7); manual ones are never pruned. */
  backupKeep: number
  /**
   * `SERVE_SITE=0`: a content process (lake, Studio, contact, backups) that serves no public
   * pages; site processes started with LAKE_URL render from it (docs/deploy.md).
   */
  serveSite: boolean
  /** `ANALYTICS=0`: no reader statistics are counted (docs/reader-statistics.md). */
  analytics: boolean
  /**
   * `STATS_TOKEN`: the same value on the content process and its site processes; the sites send
   * their reader statistics with it (docs/deploy.md).
   */
  statsToken: string | undefined
  /**
   * `LAKE_URL=http://host:port`: a site process. It renders from that content process, forwards
   * the browser's content reads, contact posts and images to it, and opens no data dir.
   */
  lakeUrl: string | undefined
  /**
   * `NEWSLETTER=1` on a site process: its pages show the subscribe form, whose posts and links it
   * forwards to the content process (which mails, so needs SMTP_URL). Ignored elsewhere: a
   * process with the lake shows the form when it has SMTP_URL.
   */
  siteNewsletter: boolean
  /**
   * `SITE_READ_TOKEN`: set on the content process and on each site process alike, it puts the
   * sites' own queries in the lake's trusted lane (no per-address cap), still with anonymous
   * visibility. Optional; it reads nothing a visitor could not.
   */
  siteReadToken: string | undefined
  /** `NEWSLETTER_GRACE_MINUTES`: a first publish waits this long before mailing (default 10). */
  newsletterGraceMinutes: number
  /** `NEWSLETTER_SEND_PER_MINUTE`: new-post mails sent per minute at most (default 60). */
  newsletterSendPerMinute: number
  /** `NEWSLETTER_CONFIRM_PER_HOUR`: confirmation mails per hour to one recipient domain (default 100). */
  newsletterConfirmPerHour: number
}

function lakeUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(
      `LAKE_URL must be an http(s) origin such as http://10.0.0.2:3000, got "${value}"`,
    )
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search)
    throw new Error(
      `LAKE_URL must be an http(s) origin such as http://10.0.0.2:3000, got "${value}"`,
    )
  return url.origin
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be a port number, got "${value}"`)
  return n
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${name} must be a positive number, got "${value}"`)
  return n
}

function nonNegative(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, got "${value}"`)
  return n
}

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number ≥ 1, got "${value}"`)
  return n
}

function trustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'none') return 'none'
  if (value === 'loopback') return 'loopback'
  throw new Error(`TRUST_PROXY must be "loopback" or "none", got "${value}"`)
}

/** Reads the server's configuration from the environment, with the documented defaults. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const p = port(env.PORT, 3000, 'PORT')
  const dataDir = resolve(env.DATA_DIR || './data')
  const {serveSite, lake, hostedProjectId} = processRole(env)
  return {
    port: p,
    httpsPort: env.HTTPS_PORT === 'off' ? 0 : port(env.HTTPS_PORT, 3443, 'HTTPS_PORT'),
    // A site process starts no Studio, so no HTTPS listener either.
    httpsListener: env.HTTPS_PORT !== 'off' && !lake,
    host: env.HOST || '127.0.0.1',
    dataDir,
    seed: env.SEED !== '0',
    siteUrl: (env.SITE_URL || `http://localhost:${p}`).replace(/\/+$/, ''),
    tlsCert: env.TLS_CERT || undefined,
    tlsKey: env.TLS_KEY || undefined,
    hostedProjectId,
    projectId: hostedProjectId ?? localProjectId,
    dataset: env.SANITY_STUDIO_DATASET || defaultDataset,
    smtpUrl: env.SMTP_URL || undefined,
    contactTo: env.CONTACT_TO || undefined,
    contactAction: env.CONTACT_ACTION || undefined,
    editingSamplesUrl:
      env.EDITING_SAMPLES_URL || 'https://docs.google.com/document/d/editing-samples',
    trustProxy: trustProxy(env.TRUST_PROXY),
    allowedHosts: (env.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    serveSite,
    analytics: env.ANALYTICS !== '0',
    lakeUrl: lake,
    ...tokens(env),
    ...sessionSettings(env),
    ...backupSettings(env, dataDir),
    ...newsletterSettings(env, lake),
  }
}

/** What this process is: the whole site, the content alone (SERVE_SITE=0), or a site process. */
function processRole(env: NodeJS.ProcessEnv) {
  const serveSite = env.SERVE_SITE !== '0'
  const lake = lakeUrl(env.LAKE_URL)
  const hostedProjectId = env.SANITY_STUDIO_PROJECT_ID || undefined
  if (lake && !serveSite)
    throw new Error('LAKE_URL (a site process) and SERVE_SITE=0 exclude each other')
  if (lake && hostedProjectId)
    throw new Error(
      'LAKE_URL and SANITY_STUDIO_PROJECT_ID exclude each other: the content is in one place',
    )
  return {serveSite, lake, hostedProjectId}
}

/** The secrets the environment may hold; a weak one stops the start. */
function tokens(env: NodeJS.ProcessEnv) {
  const lakeToken = env.LAKE_TOKEN || undefined
  const weakness = lakeToken === undefined ? undefined : weakTokenReason(lakeToken)
  if (weakness !== undefined) {
    throw new Error(
      `LAKE_TOKEN ${weakness}: it guards every write, so it must be at least ` +
        `${minLakeTokenLength} random characters (e.g. \`openssl rand -hex 32\`); ` +
        `unset it to have one generated into DATA_DIR/owner-token`,
    )
  }
  const siteReadToken = env.SITE_READ_TOKEN || undefined
  const statsToken = env.STATS_TOKEN || undefined
  if (statsToken !== undefined && statsToken.length < minLakeTokenLength)
    throw new Error(`STATS_TOKEN must be at least ${minLakeTokenLength} characters`)
  if (siteReadToken !== undefined && siteReadToken.length < minLakeTokenLength)
    throw new Error(`SITE_READ_TOKEN must be at least ${minLakeTokenLength} characters`)
  return {
    lakeToken,
    siteReadToken,
    statsToken,
    hostedReadToken: env.SANITY_API_READ_TOKEN || undefined,
    hostedWriteToken: env.SANITY_API_WRITE_TOKEN || undefined,
  }
}

function sessionSettings(env: NodeJS.ProcessEnv) {
  return {
    sessionIdleMs:
      positive(env.SESSION_IDLE_HOURS, defaultSessionIdleHours, 'SESSION_IDLE_HOURS') * 3_600_000,
    sessionMaxMs:
      positive(env.SESSION_MAX_DAYS, defaultSessionMaxDays, 'SESSION_MAX_DAYS') * 86_400_000,
  }
}

function backupSettings(env: NodeJS.ProcessEnv, dataDir: string) {
  return {
    backupDir: env.BACKUP_DIR ? resolve(env.BACKUP_DIR) : join(dataDir, 'backups'),
    backupIntervalMinutes: nonNegative(
      env.BACKUP_INTERVAL_MINUTES,
      1440,
      'BACKUP_INTERVAL_MINUTES',
    ),
    backupKeep: count(env.BACKUP_KEEP, 7, 'BACKUP_KEEP'),
  }
}

function newsletterSettings(env: NodeJS.ProcessEnv, lake: string | undefined) {
  return {
    siteNewsletter: lake !== undefined && env.NEWSLETTER === '1',
    newsletterGraceMinutes: nonNegative(
      env.NEWSLETTER_GRACE_MINUTES,
      10,
      'NEWSLETTER_GRACE_MINUTES',
    ),
    newsletterSendPerMinute: positive(
      env.NEWSLETTER_SEND_PER_MINUTE,
      60,
      'NEWSLETTER_SEND_PER_MINUTE',
    ),
    newsletterConfirmPerHour: count(
      env.NEWSLETTER_CONFIRM_PER_HOUR,
      100,
      'NEWSLETTER_CONFIRM_PER_HOUR',
    ),
  }
}
