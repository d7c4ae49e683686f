import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import sharp from 'sharp'
import {ensureChromium} from '../scripts/chromium.ts'
import {lighthouse, type LighthouseRun} from './lighthouse.ts'
import {startServerProcess, type ServerProcess} from './serverProcess.ts'
import {fmt, kb, median, percentile} from './stats.ts'
import {timedGet} from './timedGet.ts'
import type {Section, Table} from './types.ts'

/**
 * Issue 22's images section: the lake's transform of a 12-megapixel photo into srcset widths,
 * cold (first request: decode, resize, encode WebP, write to the disk cache), warm (memory), and
 * after a restart (disk); /blog's p99 while 50 cold variants are asked for at once against /blog
 * alone; and Lighthouse mobile on the seeded post with a cover and on /blog with thumbnails.
 */

const widths = [400, 800, 1600]
/** Distinct `q` values make distinct variants, so each width gets this many cold samples. */
const coldQualities = [70, 75, 80]
const warmRepeats = 5
const blogRequests = 200
const burst = 50
const webpAccept = 'image/avif,image/webp,*/*'

/** A 4000 × 3000 "photo": smooth noise scaled up, so it compresses like a picture, not a flat fill. */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: 400,
      height: 300,
      channels: 3,
      background: '#777',
      noise: {type: 'gaussian', mean: 120, sigma: 50},
    },
  })
    .png()
    .toBuffer()
  return sharp(grain).resize(4000, 3000, {kernel: 'cubic'}).jpeg({quality: 88}).toBuffer()
}

async function upload(server: ServerProcess, bytes: Buffer): Promise<string> {
  const token = readFileSync(join(server.dataDir, 'owner-token'), 'utf8').trim()
  const res = await fetch(`${server.url}/v2025-02-19/assets/images/production?filename=photo.jpg`, {
    method: 'POST',
    headers: {authorization: `Bearer ${token}`, 'content-type': 'image/jpeg'},
    body: new Uint8Array(bytes),
  })
  if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`)
  const {document} = (await res.json()) as {document: {path: string}}
  return document.path
}

/** Time to the last byte of one image GET (with a browser's Accept), and its status and size. */
async function timedImage(url: string): Promise<{ms: number; status: number; bytes: number}> {
  const start = performance.now()
  const res = await fetch(url, {headers: {accept: webpAccept}})
  const body = await res.arrayBuffer()
  return {ms: performance.now() - start, status: res.status, bytes: body.byteLength}
}

/** `count` GETs of /blog, 4 at a time, until done or `until` resolves; returns the times. */
async function blogTimes(url: string, count: number, until?: Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  let done = false
  void until?.then(() => (done = true))
  let next = 0
  const worker = async () => {
    while (next < count && !(until && done && times.length >= 20)) {
      next++
      const got = await timedGet(`${url}/blog`)
      if (got.status === 200) times.push(got.ms)
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  return times
}

export async function run(): Promise<Section> {
  const notes: string[] = []
  const photo = await twelveMegapixelPhoto()
  // One data dir for both processes (a server process removes only a data dir it made itself).
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-images-'))
  let server = await startServerProcess({dataDir})
  const transformRows: Table['rows'] = []
  const data: Record<string, unknown> = {photoBytes: photo.length}
  let lighthouseRows: Table['rows'] | undefined
  let blogTable: Table | undefined
  try {
    const path = await upload(server, photo)
    const variant = (width: number, q: number) =>
      `${server.url}/${path}?w=${width}&q=${q}&fit=max&auto=format`
    const cold = new Map<number, number[]>()
    const warm = new Map<number, number[]>()
    const sizes = new Map<number, number>()
    for (const width of widths) {
      const coldTimes: number[] = []
      for (const q of coldQualities) {
        const got = await timedImage(variant(width, q))
        if (got.status !== 200) notes.push(`w=${width} q=${q} answered ${got.status}.`)
        coldTimes.push(got.ms)
        if (q === 75) sizes.set(width, got.bytes)
      }
      const warmTimes: number[] = []
      for (let i = 0; i < warmRepeats; i++)
        warmTimes.push((await timedImage(variant(width, 75))).ms)
      cold.set(width, coldTimes)
      warm.set(width, warmTimes)
    }
    // The same variants after a restart: memory is empty, the disk cache is not.
    await server.stop()
    server = await startServerProcess({dataDir})
    const afterRestart = new Map<number, number>()
    for (const width of widths) {
      const got = await timedImage(variant(width, 75))
      if (got.status !== 200) notes.push(`After the restart w=${width} answered ${got.status}.`)
      afterRestart.set(width, got.ms)
    }
    for (const width of widths) {
      const c = cold.get(width) ?? []
      transformRows.push([
        `${width} px`,
        `${fmt(median(c), 0)} (${fmt(Math.min(...c), 0)}–${fmt(Math.max(...c), 0)})`,
        fmt(median(warm.get(width) ?? []), 1),
        fmt(afterRestart.get(width) ?? Number.NaN, 1),
        kb(sizes.get(width) ?? 0),
      ])
    }
    const cold800 = median(cold.get(800) ?? [])
    notes.push(
      `Cold 800 px WebP from the 12 MP photo: ${fmt(cold800, 0)} ms median — ${cold800 <= 300 ? 'MET' : 'MISSED'} (target ≤ 300 ms).`,
    )
    data.transforms = {
      cold: Object.fromEntries(cold),
      warm: Object.fromEntries(warm),
      afterRestart: Object.fromEntries(afterRestart),
    }

    // /blog alone, then while 50 cold variants (distinct widths) are asked for at once.
    await timedGet(`${server.url}/blog`)
    const alone = await blogTimes(server.url, blogRequests)
    const statuses = new Map<number, number>()
    const burstStart = performance.now()
    const burstDone = Promise.all(
      Array.from({length: burst}, async (_, i) => {
        const got = await timedImage(`${server.url}/${path}?w=${500 + i}&fit=max&auto=format`)
        statuses.set(got.status, (statuses.get(got.status) ?? 0) + 1)
      }),
    ).then(() => performance.now() - burstStart)
    const during = await blogTimes(server.url, blogRequests, burstDone)
    const burstMs = await burstDone
    const statusText = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ')
    blogTable = {
      title: `/blog (server-rendered, 4 at a time) alone and during a burst of ${burst} cold variants`,
      columns: ['case', 'requests', 'p50 ms', 'p99 ms'],
      rows: [
        ['alone', alone.length, fmt(percentile(alone, 50), 1), fmt(percentile(alone, 99), 1)],
        [
          `during the burst (${statusText}; ${fmt(burstMs, 0)} ms)`,
          during.length,
          fmt(percentile(during, 50), 1),
          fmt(percentile(during, 99), 1),
        ],
      ],
    }
    data.blog = {alone, during, burst: Object.fromEntries(statuses), burstMs}
    notes.push(
      `One client's burst is bounded: at most 16 of its transforms run or wait (429 past that), one transform runs at a time, so pages keep the other core.`,
    )

    // Lighthouse mobile: the newest seeded post (it has a cover) and /blog, cold then warm.
    const chromePath = ensureChromium()
    const post = '/blog/ghostwriting-without-losing-your-voice'
    const runs: Array<[string, string, LighthouseRun]> = []
    for (const route of [post, '/blog']) {
      for (const label of ['first visit (cold variants)', 'second visit (warm)']) {
        try {
          runs.push([route, label, await lighthouse(server.url + route, 'mobile', chromePath)])
        } catch (error) {
          notes.push(
            `Lighthouse ${route} ${label} failed: ${(error as Error).message.split('\n')[0]}`,
          )
        }
      }
    }
    lighthouseRows = runs.map(([route, label, r]) => [
      `${route} — ${label}`,
      `${r.performance}/${r.accessibility}/${r.bestPractices}/${r.seo}`,
      fmt(r.lcp / 1000, 2),
      fmt(r.cls, 3),
      kb(r.transferBytes),
      kb(r.jsBytes),
    ])
    data.lighthouse = runs
    const postLcp = runs.filter(([route]) => route === post).map(([, , r]) => r.lcp / 1000)
    if (postLcp.length > 0)
      notes.push(
        `Post with a cover, mobile LCP ${postLcp.map((s) => fmt(s, 2)).join(' s, ')} s — ${Math.max(...postLcp) <= 1 ? 'MET' : 'MISSED'} (target ≤ 1.0 s; the Astro starter's WebP hero: 1.28 s).`,
      )
  } finally {
    await server.stop()
    rmSync(dataDir, {recursive: true, force: true})
  }
  return {
    name: 'images',
    title: 'Images: transforms, pages during a transform burst, Lighthouse with covers',
    tables: [
      {
        title: `Variants of a 12 MP JPEG (${kb(photo.length)}) as WebP, fit=max: ms to the last byte`,
        columns: [
          'width',
          'cold median (min–max)',
          'warm (memory)',
          'after restart (disk)',
          'bytes',
        ],
        rows: transformRows,
      },
      ...(blogTable ? [blogTable] : []),
      ...(lighthouseRows && lighthouseRows.length > 0
        ? [
            {
              title: 'Lighthouse mobile (perf/a11y/best practices/SEO)',
              columns: ['route', 'scores', 'LCP s', 'CLS', 'transfer', 'JS'],
              rows: lighthouseRows,
            },
          ]
        : []),
    ],
    notes,
    data,
  }
}
