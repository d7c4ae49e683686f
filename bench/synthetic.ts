import {execFileSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {postCategories} from '../schemas/categories.ts'
import {importDocuments, Lake, type Doc} from '../server/lake/index.ts'

const words = (
  'the valley road climbs past walnut orchards and apple terraces toward a pass where snow lingers into june ' +
  'every manuscript tells you what it wants to be if you read it slowly enough and resist the urge to fix it'
).split(' ')

function sentence(seed: number, length: number): string {
  const picked = Array.from({length}, (_, i) => words[(seed * 7 + i * 13) % words.length])
  const text = picked.join(' ')
  return text[0].toUpperCase() + text.slice(1) + '.'
}

function block(key: string, text: string): Record<string, unknown> {
  return {
    _type: 'block',
    _key: key,
    style: 'normal',
    markDefs: [],
    children: [{_type: 'span', _key: `${key}s`, text, marks: []}],
  }
}

/**
 * A plausible post: title, slug, a date (one a day going back from 2026-11-01), a category in
 * rotation, an excerpt and a four-paragraph body of about 1.5 KB, like the seed's shorter posts.
 */
export function syntheticPost(n: number): Doc {
  const id = String(n).padStart(5, '0')
  const date = new Date(Date.UTC(2026, 10, 1) - n * 86_400_000).toISOString().slice(0, 10)
  const paragraphs = [0, 1, 2, 3].map((p) =>
    block(`b${id}${p}`, `${sentence(n + p, 24)} ${sentence(n + p + 5, 30)}`),
  )
  return {
    _id: `post-bench-${id}`,
    _type: 'post',
    title: `${sentence(n, 6).slice(0, -1)} ${id}`,
    slug: {_type: 'slug', current: `bench-post-${id}`},
    date,
    category: postCategories[n % postCategories.length],
    excerpt: sentence(n + 3, 24).slice(0, 151),
    body: paragraphs,
  }
}

/**
 * Creates a fresh data dir holding `count` synthetic posts; returns it and the import time. The
 * import runs in a child process: the bench's own process times requests, and collecting the
 * import's garbage (10k posts, their lake) there landed 6–8 ms pauses in its timings.
 */
export function seedDataDir(count: number): {dataDir: string; importMs: number} {
  const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(count)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  // The lake may log; the answer is the last line.
  const last = output.trim().split('\n').at(-1) ?? ''
  // Written just below by this same file.
  return JSON.parse(last) as {dataDir: string; importMs: number}
}

function seedInProcess(count: number): {dataDir: string; importMs: number} {
  const dataDir = mkdtempSync(join(tmpdir(), `scriptorium-scale-${count}-`))
  const lake = new Lake({dataDir, projectId: 'scriptorium', dataset: 'production'})
  try {
    const docs = Array.from({length: count}, (_, i) => syntheticPost(i + 1))
    const start = performance.now()
    importDocuments(lake, docs)
    return {dataDir, importMs: performance.now() - start}
  } finally {
    lake.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(seedInProcess(Number(process.argv[2]))))
