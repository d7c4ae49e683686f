import runLighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import {launchDebuggableChromium} from './chromium.ts'

export type Preset = 'mobile' | 'desktop'

/** One Lighthouse run's figures: scores 0–100, times in ms, bytes as transferred. */
export interface LighthouseRun {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  fcp: number
  lcp: number
  tbt: number
  cls: number
  transferBytes: number
  jsBytes: number
  warnings: string[]
  /** Per category, the ids of its weighted audits that failed (score below 0.9). */
  failing: Record<string, string[]>
}

/** Lighthouse's result object (its own type, from the package's declarations). */
type Lhr = NonNullable<Awaited<ReturnType<typeof runLighthouse>>>['lhr']

function score(lhr: Lhr, id: string): number {
  const value = lhr.categories[id]?.score
  return typeof value === 'number' ? Math.round(value * 100) : Number.NaN
}

function numeric(lhr: Lhr, id: string): number {
  return lhr.audits[id]?.numericValue ?? Number.NaN
}

/**
 * Per category, its weighted, scored audits that fail as Lighthouse's report shows them (a score
 * under 0.9: a metric at 0.98 in a category of 100 is not a failure).
 */
function failingAudits(lhr: Lhr): Record<string, string[]> {
  const failing: Record<string, string[]> = {}
  for (const [id, category] of Object.entries(lhr.categories)) {
    failing[id] = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .filter((ref) => {
        const audit = lhr.audits[ref.id]
        return typeof audit?.score === 'number' && audit.score < 0.9
      })
      .map((ref) => ref.id)
  }
  return failing
}

/** Transfer size of scripts from the resource-summary audit's 'script' row. */
function scriptBytes(lhr: Lhr): number {
  const details = lhr.audits['resource-summary']?.details
  const items: unknown[] =
    details && 'items' in details && Array.isArray(details.items) ? details.items : []
  for (const item of items) {
    if (
      item &&
      typeof item === 'object' &&
      'resourceType' in item &&
      item.resourceType === 'script'
    ) {
      return 'transferSize' in item && typeof item.transferSize === 'number' ? item.transferSize : 0
    }
  }
  return 0
}

/**
 * Runs Lighthouse (the npm package, in this Node 24 process) once against `url` in a Chromium of
 * its own, so runs never share a cache or a profile. Mobile is Lighthouse's default (simulated
 * slow 4G, 4× CPU slowdown); desktop is its desktop preset. The bf-cache audit is skipped: it
 * weighs 0 in every category and costs an extra navigation per run.
 */
export async function lighthouse(
  url: string,
  preset: Preset,
  chromePath: string,
): Promise<LighthouseRun> {
  const chromium = await launchDebuggableChromium(chromePath)
  try {
    const result = await runLighthouse(
      url,
      {
        port: chromium.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        skipAudits: ['bf-cache'],
      },
      preset === 'desktop' ? desktopConfig : undefined,
    )
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`)
    const lhr = result.lhr
    if (lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.message}`)
    return {
      performance: score(lhr, 'performance'),
      accessibility: score(lhr, 'accessibility'),
      bestPractices: score(lhr, 'best-practices'),
      seo: score(lhr, 'seo'),
      fcp: numeric(lhr, 'first-contentful-paint'),
      lcp: numeric(lhr, 'largest-contentful-paint'),
      tbt: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      transferBytes: numeric(lhr, 'total-byte-weight'),
      jsBytes: scriptBytes(lhr),
      warnings: lhr.runWarnings ?? [],
      failing: failingAudits(lhr),
    }
  } finally {
    await chromium.close()
  }
}
