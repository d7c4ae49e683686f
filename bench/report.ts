import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {machineLine, type Machine} from './machine.ts'
import type {SectionResult, Table} from './types.ts'

export const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results')

/** A section as kept in latest.json: with the machine it ran on, since runs of one section alone mix. */
interface StoredSection extends SectionResult {
  machine: Machine
}

/** The order sections appear in latest.md, whatever order they ran in. */
const order = ['lake', 'web', 'images', 'server', 'scale', 'memory']

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

function readLatest(file: string): Record<string, StoredSection> {
  if (!existsSync(file)) return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, StoredSection>) : {}
  } catch {
    return {} // a damaged latest.json only loses older sections; this run's are written anew
  }
}

/**
 * Writes this run to results/<date>.json and merges its sections into results/latest.json, from
 * which latest.md is rebuilt: running one benchmark alone replaces only its own section there.
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

  const latestFile = join(resultsDir, 'latest.json')
  const latest = readLatest(latestFile)
  for (const section of run.sections) latest[section.name] = {...section, machine: run.machine}
  writeFileSync(latestFile, JSON.stringify(latest, null, 2) + '\n')

  const names = Object.keys(latest).sort((a, b) => rank(a) - rank(b))
  const body = names.map((name) => sectionMarkdown(latest[name], latest[name].machine)).join('\n')
  const markdown = join(resultsDir, 'latest.md')
  writeFileSync(
    markdown,
    `# Benchmark results\n\nWritten by \`npm run bench\` (see bench/README.md for what each figure means). ` +
      `Each section shows when and on which machine it last ran.\n\n${body}`,
  )
  return {json, markdown}
}

function rank(name: string): number {
  const index = order.indexOf(name)
  return index === -1 ? order.length : index
}
