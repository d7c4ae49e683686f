import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {benches} from './benches.ts'
import {machineLine, type Machine} from './machine.ts'
import type {SectionResult, Table} from './types.ts'

export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results')

function escape(cell: unknown): string {
  return cell === null || cell === undefined
    ? '–'
    : String(cell).replaceAll('|', '\\|').replaceAll('\n', ' ')
}

export function markdownTable(table: Table): string {
  const lines = [`**${table.title}**`, '', `| ${table.columns.map(escape).join(' | ')} |`]
  lines.push(`|${table.columns.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`)
  for (const row of table.rows) lines.push(`| ${row.map(escape).join(' | ')} |`)
  return lines.join('\n')
}

export function sectionMarkdown(section: SectionResult, machine?: Machine): string {
  const parts = [`## ${section.title}`, '']
  parts.push(
    `_Ran ${section.startedAt} in ${Math.round(section.seconds)} s${machine ? ` on ${machineLine(machine)}` : ''}._`,
    '',
  )
  for (const table of section.tables) parts.push(markdownTable(table), '')
  for (const note of section.notes) parts.push(`- ${note}`)
  return parts.join('\n').trimEnd() + '\n'
}

const header =
  '# Benchmark results\n\nWritten by `npm run bench` (see bench/README.md for what each figure means). ' +
  'Each section shows when and on which machine it last ran.\n'

/** The comment that opens a section's block in latest.md, so a later run can find and replace it. */
function marker(name: string): string {
  return `<!-- bench:${name} -->`
}

const markerLine = /^<!-- bench:([\w-]+) -->$/

/**
 * The sections of a latest.md by name: each block runs from its marker line to the next
 * marker (or the end). Text before the first marker is the header, written anew every time.
 */
export function parseLatest(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>()
  let name: string | undefined
  let lines: string[] = []
  const flush = () => {
    if (name !== undefined) blocks.set(name, lines.join('\n').trim() + '\n')
  }
  for (const line of markdown.split('\n')) {
    const match = markerLine.exec(line)
    if (!match) {
      lines.push(line)
      continue
    }
    flush()
    name = match[1]
    lines = []
  }
  flush()
  return blocks
}

/**
 * latest.md with the sections that just ran replacing their old blocks and every other block
 * kept as committed, in the order of `order` (names it does not know follow, as they were).
 */
export function mergeLatest(
  previous: string,
  ran: ReadonlyArray<{name: string; markdown: string}>,
  order: readonly string[],
): string {
  const blocks = parseLatest(previous)
  for (const section of ran) blocks.set(section.name, section.markdown.trim() + '\n')
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length)
  // Array.prototype.sort is stable: unknown names keep the order they had.
  const names = [...blocks.keys()].sort((a, b) => rank(a) - rank(b))
  return [header, ...names.map((name) => `${marker(name)}\n\n${blocks.get(name)}`)].join('\n')
}

/**
 * Writes this run to results/<date>.json (git-ignored) and merges its sections into the
 * committed results/latest.md: running one benchmark alone replaces only its own section, in a
 * fresh checkout too, since the other sections are read back from latest.md itself.
 */
export function writeResults(run: {
  machine: Machine
  startedAt: string
  seconds: number
  sections: SectionResult[]
}): {
  json: string
  markdown: string
} {
  mkdirSync(resultsDir, {recursive: true})
  const stamp = run.startedAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')
  const json = join(resultsDir, `${stamp}.json`)
  writeFileSync(json, JSON.stringify(run, null, 2) + '\n')

  const markdown = join(resultsDir, 'latest.md')
  const previous = existsSync(markdown) ? readFileSync(markdown, 'utf8') : ''
  const ran = run.sections.map((section) => ({
    name: section.name,
    markdown: sectionMarkdown(section, run.machine),
  }))
  writeFileSync(markdown, mergeLatest(previous, ran, benches))
  return {json, markdown}
}
