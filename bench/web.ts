/**
 * Web benchmark: Lighthouse (mobile and desktop, several runs per route, medians) on every public
 * route of a seeded production server, the gzip/brotli size of every public JS chunk, and a check
 * that no Studio code reached a chunk a reader loads (preview-only chunks reported apart).
 */
import {ensureChromium} from '../scripts/chromium.ts'
import {firstLoadJsGzip, publicChunks, studioCode, studioNotes, type Chunk} from './chunks.ts'
import {firstTapNote, firstTapTable, measureFirstTaps, type FirstTapResult} from './firstTap.ts'
import {lighthouse, type LighthouseRun, type Preset} from './lighthouse.ts'
import {startServerProcess} from './serverProcess.ts'
import {fetchPage, newestPostSlug, publicRoutes} from './site.ts'
import {fmt, fmtSpread, kb, spread} from './stats.ts'
import type {Cell, Section, Table} from './types.ts'

const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3)
const presets: Preset[] = ['mobile', 'desktop']
/** Issue #3's targets, and TOOLING.md's same-machine reference figures (mobile, median of 3). */
const targets = {score: 100, homeLcpMs: 1200, firstLoadJsGzip: 90 * 1024}
const references = [
  "Reference (same machine, mobile): Astro's blog starter home 100/100/100/100, LCP 1.20 s, 0 KB JS; " +
    'a minimal client-rendered React 19 + react-router + styled-components page 99/100/100/82, LCP 1.64 s, 92.7 KB gzip JS.',
]

function lighthouseTable(preset: Preset, results: Map<string, LighthouseRun[]>): Table {
  const rows: Cell[][] = []
  for (const [route, list] of results) {
    const pick = (f: (r: LighthouseRun) => number) => spread(list.map(f))
    rows.push([
      route,
      fmtSpread(
        pick((r) => r.performance),
        0,
      ),
      fmtSpread(
        pick((r) => r.accessibility),
        0,
      ),
      fmtSpread(
        pick((r) => r.bestPractices),
        0,
      ),
      fmtSpread(
        pick((r) => r.seo),
        0,
      ),
      fmtSpread(
        pick((r) => r.fcp / 1000),
        2,
        ' s',
      ),
      fmtSpread(
        pick((r) => r.lcp / 1000),
        2,
        ' s',
      ),
      fmtSpread(
        pick((r) => r.tbt),
        0,
        ' ms',
      ),
      fmtSpread(
        pick((r) => r.cls),
        3,
      ),
      kb(spread(list.map((r) => r.transferBytes)).median),
      kb(spread(list.map((r) => r.jsBytes)).median),
    ])
  }
  return {
    title: `Lighthouse ${preset}, median (min–max) of ${runs} runs`,
    columns: [
      'route',
      'perf',
      'a11y',
      'best pr.',
      'SEO',
      'FCP',
      'LCP',
      'TBT',
      'CLS',
      'transfer',
      'JS transfer',
    ],
    rows,
  }
}

function chunkTable(chunks: Chunk[]): Table {
  const when = (c: Chunk) =>
    c.previewOnly
      ? 'preview only'
      : c.interaction
        ? 'first interaction'
        : c.lazy
          ? 'lazy'
          : 'shared'
  const rows: Cell[][] = chunks.map((c) => [c.file, when(c), kb(c.bytes), kb(c.gzip), kb(c.brotli)])
  const total = (label: string, list: Chunk[]): Cell[] => [
    label,
    '',
    ...(['bytes', 'gzip', 'brotli'] as const).map((size) =>
      kb(list.reduce((sum, c) => sum + c[size], 0)),
    ),
  ]
  rows.push(
    total(
      '**first-interaction total**',
      chunks.filter((c) => c.interaction),
    ),
    total(
      '**preview-only total** (the owner, in preview)',
      chunks.filter((c) => c.previewOnly),
    ),
    total('**all chunks**', chunks),
  )
  return {
    title: 'Public JS chunks (dist/client)',
    columns: ['chunk', 'loaded', 'raw', 'gzip -9', 'brotli -q 11'],
    rows,
  }
}

function targetNotes(
  results: Map<Preset, Map<string, LighthouseRun[]>>,
  chunks: Chunk[],
  firstLoad: Map<string, number>,
): string[] {
  const notes: string[] = []
  const mobile = results.get('mobile')
  if (mobile) {
    const below = [...mobile].filter(([, list]) =>
      (['performance', 'accessibility', 'bestPractices', 'seo'] as const).some(
        (k) => spread(list.map((r) => r[k])).median < targets.score,
      ),
    )
    notes.push(
      below.length === 0
        ? 'Target MET: 100 in all four categories on every route (mobile medians).'
        : `Target MISSED: below 100 (mobile medians) on ${below.map(([route]) => route).join(', ')}.`,
    )
    const home = mobile.get('/')
    if (home) {
      const lcp = spread(home.map((r) => r.lcp)).median
      notes.push(
        `Target ${lcp <= targets.homeLcpMs ? 'MET' : 'MISSED'}: Home LCP ${fmt(lcp / 1000, 2)} s mobile (target ≤ 1.2 s).`,
      )
    }
  }
  const gzipOf = (list: Chunk[]) => list.reduce((total, c) => total + c.gzip, 0)
  const [heaviest = '', most = 0] = [...firstLoad].sort((a, b) => b[1] - a[1])[0] ?? []
  notes.push(
    `Target ${most <= targets.firstLoadJsGzip ? 'MET' : 'MISSED'}: first-load JS at most ${kb(most)} gzip (${heaviest}; ` +
      'the inline boot script, no file) (target ≤ 90 KB).',
  )
  if (mobile) {
    // What the browser really fetched: Lighthouse does not interact, so this is the first load.
    const seen = Math.max(
      ...[...mobile.values()].map((list) => spread(list.map((r) => r.jsBytes)).median),
    )
    notes.push(
      `Lighthouse (mobile, no interaction) transferred at most ${kb(seen)} of JS on any route.`,
    )
  }
  notes.push(
    `The app (React, router, styles: ${kb(gzipOf(chunks.filter((c) => c.interaction)))} gzip) loads at the visitor's first ` +
      'interaction (pointer, touch, scroll, key, focus or click) and hydrates the server HTML; button clicks made meanwhile ' +
      'are replayed (docs/site.md).',
  )
  return notes
}

export async function run(): Promise<Section> {
  const chunks = publicChunks()
  const studio = studioCode()
  const notes: string[] = []
  const chromePath = ensureChromium()
  const server = await startServerProcess()
  const results = new Map<Preset, Map<string, LighthouseRun[]>>()
  const firstLoad = new Map<string, number>()
  let firstTaps: FirstTapResult[] | undefined
  try {
    const routes = publicRoutes(await newestPostSlug(server.url))
    for (const route of routes) {
      const page = await fetchPage(server.url + route)
      if (page.status !== 200) notes.push(`${route} answered HTTP ${page.status}.`)
      firstLoad.set(route, firstLoadJsGzip(page.body, chunks))
    }
    // One Chromium at a time: runs are strictly sequential (2 shared cores).
    for (const preset of presets) {
      const byRoute = new Map<string, LighthouseRun[]>()
      results.set(preset, byRoute)
      for (const route of routes) {
        const list: LighthouseRun[] = []
        byRoute.set(route, list)
        for (let i = 0; i < runs; i++) {
          try {
            const result = await lighthouse(server.url + route, preset, chromePath)
            list.push(result)
            console.log(
              `  ${preset} ${route} #${i + 1}: perf ${result.performance}, LCP ${fmt(result.lcp / 1000, 2)} s`,
            )
            for (const warning of result.warnings)
              notes.push(`Lighthouse warned on ${preset} ${route}: ${warning}`)
          } catch (error) {
            notes.push(
              `Lighthouse ${preset} ${route} run ${i + 1} failed: ${(error as Error).message.split('\n')[0]}`,
            )
          }
        }
      }
    }
    // Issue #12: the first tap on a phone (bench/firstTap.ts), after Lighthouse, alone.
    firstTaps = await measureFirstTaps(server.url)
  } finally {
    await server.stop()
  }
  notes.unshift(...targetNotes(results, chunks, firstLoad))
  notes.push(
    firstTaps && firstTaps.length > 0
      ? firstTapNote(firstTaps)
      : 'First tap target (issue #12) not measured: no row ran.',
  )
  notes.push(
    'First tap: Chromium turns prerendering off while DevTools emulates the network ' +
      '(PrerenderingDisabledByDevTools), so the tab row measures the speculation rules’ fallback, a prefetch; ' +
      'a phone without DevTools shows the prerendered page at once.',
  )
  notes.push(...studioNotes(studio, chunks))
  notes.push(...references)
  const tables = [...results].map(([preset, byRoute]) => lighthouseTable(preset, byRoute))
  tables.push(chunkTable(chunks))
  if (firstTaps && firstTaps.length > 0) tables.push(firstTapTable(firstTaps))
  const data = {
    runs,
    chunks,
    studio,
    firstTaps,
    lighthouse: Object.fromEntries([...results].map(([p, m]) => [p, Object.fromEntries(m)])),
  }
  return {
    name: 'web',
    title: 'Web: Lighthouse and bundle',
    tables,
    notes: [...new Set(notes)],
    data,
  }
}
