import {execFileSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'

/** Kernel clock ticks per second, the unit of utime/stime in /proc/<pid>/stat. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100
  } catch {
    return 100
  }
})()

/** Fields after the command name, which is in parentheses and may itself contain spaces. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined // the process is gone
  }
}

/** User + system CPU seconds the processes have used so far (from /proc/<pid>/stat). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    const fields = statFields(pid)
    // utime and stime are fields 14 and 15 of stat(5), i.e. 11 and 12 after the name.
    if (fields) ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks / ticksPerSecond
}

/** A process and its direct children (nginx's master and its workers). */
export function withChildren(pid: number): number[] {
  const pids = [pid]
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    if (Number(statFields(Number(name))?.[1]) === pid) pids.push(Number(name))
  }
  return pids
}
