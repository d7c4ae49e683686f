import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {benches} from './benches.ts'
import {mergeLatest, parseLatest, resultsDir, sectionMarkdown} from './report.ts'

const committed = readFileSync(join(resultsDir, 'latest.md'), 'utf8')

const hostile = sectionMarkdown({
  name: 'hostile',
  title: 'Honest load under attack (new)',
  startedAt: '2026-11-26T03:00:00.000Z',
  seconds: 300,
  tables: [{title: 'runs', columns: ['run', 'p99'], rows: [['1', 12.5]]}],
  notes: ['MET in 5 of 5 runs.'],
})

describe('latest.md merging (bench/report.ts)', () => {
  it('replaces only the section that ran and keeps every other committed section as it was', () => {
    const before = parseLatest(committed)
    const after = parseLatest(
      mergeLatest(committed, [{name: 'hostile', markdown: hostile}], benches),
    )
    expect([...after.keys()].sort()).toEqual([...before.keys(), 'hostile'].filter(unique).sort())
    for (const [name, block] of before) if (name !== 'hostile') expect(after.get(name)).toBe(block)
    expect(after.get('hostile')).toContain('## Honest load under attack (new)')
    expect(after.get('hostile')).toContain('MET in 5 of 5 runs.')
  })

  it('lists sections in the order of bench/benches.ts, whatever order they ran or were stored in', () => {
    const stored = mergeLatest('', [{name: 'search', markdown: '## Search\n'}], benches)
    const merged = mergeLatest(
      stored,
      [
        {name: 'memory', markdown: '## Memory\n'},
        {name: 'lake', markdown: '## Lake\n'},
      ],
      benches,
    )
    expect([...merged.matchAll(/^## (\w+)$/gm)].map((m) => m[1])).toEqual([
      'Lake',
      'Memory',
      'Search',
    ])
  })

  it('is unchanged by merging nothing (a run of no section rewrites no figure)', () => {
    expect(mergeLatest(committed, [], benches)).toBe(
      mergeLatest(mergeLatest(committed, [], benches), [], benches),
    )
    expect(parseLatest(mergeLatest(committed, [], benches))).toEqual(parseLatest(committed))
  })
})

function unique(value: string, index: number, all: string[]): boolean {
  return all.indexOf(value) === index
}
