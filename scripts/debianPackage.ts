import {execFileSync, execSync} from 'node:child_process'

/** The path of `command` on PATH, or undefined. */
export function commandPath(command: string): string | undefined {
  try {
    return (
      execSync(`command -v ${command}`, {encoding: 'utf8', shell: '/bin/bash'}).trim() || undefined
    )
  } catch {
    return undefined
  }
}

/**
 * Finds `command`, installing Debian's `pkg` when it is missing and we are root, the way
 * chromium.ts installs Chromium (the tests run on Debian; nothing is downloaded from elsewhere).
 */
export function ensureDebianCommand(command: string, pkg: string): string {
  const found = commandPath(command)
  if (found) return found
  if (process.getuid?.() !== 0)
    throw new Error(`${command} is not installed: run \`apt-get install -y ${pkg}\``)
  console.log(`[e2e] installing Debian ${pkg} (apt-get install -y ${pkg})…`)
  execFileSync('apt-get', ['update'], {stdio: 'inherit'})
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
    stdio: 'inherit',
    env: {...process.env, DEBIAN_FRONTEND: 'noninteractive'},
  })
  const installed = commandPath(command)
  if (!installed) throw new Error(`apt-get installed ${pkg} but ${command} is not on PATH`)
  return installed
}
