import {spawn, type ChildProcess} from 'node:child_process'

/** The real server in a child process, for crash tests: `kill -9` is what they need. */
export interface ChildServer {
  child: ChildProcess
  /** The site's address, as the server printed it. */
  url: string
  /** Resolves when the process has exited (killed or not). */
  exited: Promise<void>
  /** SIGKILL, then waits for the exit; harmless once it has exited. */
  kill(): Promise<void>
}

/**
 * Starts `server/main.ts` on free loopback ports with `env` over the test's own environment
 * (pass DATA_DIR to restart on the same data), and resolves once it prints its site address.
 */
export function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {...process.env, PORT: '0', HTTPS_PORT: '0', SEED: '0', ...env},
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
  return new Promise((resolve, reject) => {
    let out = ''
    const early = (code: number | null) =>
      reject(new Error(`server exited early (${code}): ${out}`))
    child.once('exit', early)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = out.match(/Site:\s+(http:\/\/\S+)/)?.[1]
      if (!url) return
      child.off('exit', early)
      // Keep draining stdout so a chatty server never blocks on a full pipe.
      out = ''
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      resolve({child, url, exited, kill})
    })
  })
}
