import {execFileSync} from 'node:child_process'
import {cpus, freemem, loadavg, release, totalmem} from 'node:os'
import {findChromium} from '../scripts/chromium.ts'

export interface Machine {
  cores: number
  cpu: string
  memoryGiB: number
  freeMemoryGiB: number
  /** 1-minute load average when the run started: > cores means other work competed with us. */
  load1: number
  os: string
  node: string
  chromium: string
  nginx: string
  commit: string
}

function quiet(command: string, args: string[]): string {
  try {
    // nginx -v writes to stderr; Debian's chromium wrapper prints a shell warning first.
    return execFileSync(command, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']}).trim()
  } catch (error) {
    const stderr = (error as {stderr?: string}).stderr
    return typeof stderr === 'string' ? stderr.trim() : ''
  }
}

function lastLine(text: string): string {
  return text.split('\n').filter(Boolean).at(-1) ?? ''
}

export function chromiumVersion(): string {
  const path = process.env.CHROME_PATH || findChromium()
  if (!path) return 'not installed'
  return lastLine(quiet(path, ['--version'])).replace(/\s+built on.*/, '') || 'unknown'
}

export function nginxVersion(): string {
  const out = quiet('sh', ['-c', 'nginx -v 2>&1'])
  return out.match(/nginx\/[\d.]+/)?.[0] ?? 'not installed'
}

/** The machine a run measured, printed at the top of every run and stored with its figures. */
export function describeMachine(): Machine {
  const dirty = quiet('git', ['status', '--porcelain', '--untracked-files=no'])
    ? ' (uncommitted changes)'
    : ''
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    load1: Math.round(loadavg()[0] * 100) / 100,
    os: `${process.platform} ${release()}`,
    node: process.version,
    chromium: chromiumVersion(),
    nginx: nginxVersion(),
    commit: (quiet('git', ['rev-parse', '--short', 'HEAD']) || 'unknown') + dirty,
  }
}

export function machineLine(m: Machine): string {
  return [
    `${m.cores} cores (${m.cpu})`,
    `${m.memoryGiB} GiB RAM (${m.freeMemoryGiB} free)`,
    `load ${m.load1}`,
    `Node ${m.node}`,
    m.chromium,
    m.nginx === 'not installed' ? 'nginx not installed' : m.nginx,
    m.os,
    `commit ${m.commit}`,
  ].join(' · ')
}
