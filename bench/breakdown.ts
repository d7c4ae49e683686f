/**
 * Where our time goes on /blog: the same HTML served three ways under the same load, in turn —
 * nginx (static file), bare node:http from memory (the floor of any Node server), and ours
 * (Hono + @hono/node-server + the render cache). CPU per request separates what Node itself
 * costs from what our request path adds on top, independently of how busy the machine is.
 */
import {startFloor} from './floor.ts'
import {loadInTurn, loadSeconds, warm, type LoadResult, type Target} from './load.ts'
import type {StaticServer} from './nginx.ts'
import {fmt} from './stats.ts'
import type {Table} from './types.ts'

const connections = 64

function row(name: string, r: LoadResult): (string | number)[] {
  return [
    name,
    fmt(r.rps.mean, 0),
    `${fmt(r.p50, 2)} / ${fmt(r.p99, 2)}`,
    fmt(r.cpuMsPerRequest, 3),
    fmt(1000 / r.cpuMsPerRequest, 0),
    fmt(r.cores, 2),
  ]
}

export async function breakdown(
  ours: Target,
  route: string,
  html: string,
  nginx: StaticServer | undefined,
): Promise<{table: Table; notes: string[]; data: Record<string, LoadResult>}> {
  const floor = await startFloor({[route]: html})
  try {
    const targets: Target[] = [ours, {url: floor.url + route, pids: floor.pids}]
    if (nginx) targets.push({url: nginx.url + route, pids: nginx.pids})
    for (const target of targets) await warm(target.url)
    const [oursResult, floorResult, nginxResult] = await loadInTurn(
      targets,
      connections,
      loadSeconds,
    )
    const rows = [
      row('ours (Hono + render cache)', oursResult),
      row('bare node:http, same HTML from memory', floorResult),
    ]
    if (nginxResult) rows.push(row('nginx, static file', nginxResult))
    const added = oursResult.cpuMsPerRequest - floorResult.cpuMsPerRequest
    const share = (100 * added) / oursResult.cpuMsPerRequest
    const notes = [
      `Where the time goes on ${route} (${connections} connections): bare node:http costs ${fmt(floorResult.cpuMsPerRequest, 3)} ms CPU per ` +
        `request, ours ${fmt(oursResult.cpuMsPerRequest, 3)} ms: ` +
        (share > 10
          ? `our request path adds ${fmt(added, 3)} ms (${fmt(share, 0)}% of ours)`
          : 'our request path adds nothing measurable on top of Node') +
        (nginxResult ? `; nginx needs ${fmt(nginxResult.cpuMsPerRequest, 3)} ms.` : '.'),
    ]
    const data: Record<string, LoadResult> = {ours: oursResult, floor: floorResult}
    if (nginxResult) data.nginx = nginxResult
    return {
      table: {
        title: `Where the time goes: ${route} at ${connections} connections, ${loadSeconds} s each in turn`,
        columns: [
          'server',
          'req/s (mean)',
          'p50 / p99 ms',
          'CPU ms/req',
          'req/s per free core',
          'cores used',
        ],
        rows,
      },
      notes,
      data,
    }
  } finally {
    await floor.stop()
  }
}
