import {join} from 'node:path'
import {runCaddy} from '../scripts/caddy.ts'
import {commandPath} from '../scripts/debianPackage.ts'
import {freePort} from '../scripts/freePort.ts'

/** Debian's Caddy (apt-get install caddy), as e2e/support/caddy.ts runs it; undefined if absent. */
export function caddyPath(): string | undefined {
  return commandPath('caddy')
}

export interface RunningCaddy {
  /** http://127.0.0.1:<port> */
  url: string
  pid: number
  stop(): Promise<void>
}

/**
 * Caddy on a loopback port in front of `upstreams`, load-balanced as deploy/Caddyfile.scale
 * spreads the site processes (least connections), over plain HTTP: the load generator speaks
 * HTTP/1.1, and TLS would measure the handshake code rather than the spread. No admin endpoint,
 * its state in a temp dir.
 */
export async function startCaddy(caddy: string, upstreams: string[]): Promise<RunningCaddy> {
  const port = await freePort()
  const running = await runCaddy(
    caddy,
    (stateDir) => `{
\tadmin off
\tauto_https off
\tstorage file_system {
\t\troot ${join(stateDir, 'storage')}
\t}
}

http://127.0.0.1:${port} {
\treverse_proxy ${upstreams.join(' ')} {
\t\tlb_policy least_conn
\t}
}
`,
  )
  return {url: `http://127.0.0.1:${port}`, ...running}
}
