import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readConfig} from '../server/env.ts'
import {ensureDebianCommand} from '../scripts/debianPackage.ts'

// deploy/scriptorium.service and deploy/scriptorium.env.example (docs/deploy.md). This machine's
// PID 1 is not systemd, so the unit cannot run here; `systemd-analyze verify` checks it as a
// file. verify refuses an ExecStart binary that does not exist, so it checks a copy in which
// /opt/scriptorium (where docs/deploy.md installs the app) is this checkout and the env file a
// temporary one; every other line is the unit as shipped.
const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '')
const unit = readFileSync(new URL('../deploy/scriptorium.service', import.meta.url), 'utf8')
const envExample = readFileSync(
  new URL('../deploy/scriptorium.env.example', import.meta.url),
  'utf8',
)
const scratch = mkdtempSync(join(tmpdir(), 'scriptorium-unit-'))
afterAll(() => rmSync(scratch, {recursive: true, force: true}))

/** `Key=value` lines of the unit (the last one wins, as in systemd), comments dropped. */
function setting(key: string): string[] {
  return unit
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1))
}

/** The env file as systemd's EnvironmentFile reads it: KEY=value lines, # comments. */
function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
}

describe('deploy/scriptorium.service', () => {
  it('passes systemd-analyze verify', () => {
    const analyze = ensureDebianCommand('systemd-analyze', 'systemd')
    const env = join(scratch, 'scriptorium.env')
    writeFileSync(env, envExample)
    const copy = join(scratch, 'scriptorium.service')
    writeFileSync(
      copy,
      unit.replaceAll('/opt/scriptorium', root).replace('/etc/scriptorium/scriptorium.env', env),
    )
    const result = spawnSync(analyze, ['verify', copy], {encoding: 'utf8'})
    expect(result.stderr + result.stdout).toBe('')
    expect(result.status).toBe(0)
    // The offline security review scores the sandboxing (0 = fully confined, 10 = exposed).
    const review = execFileSync(analyze, ['security', '--offline=yes', copy], {encoding: 'utf8'})
    const exposure = Number(review.match(/Overall exposure level for \S+: ([\d.]+)/)?.[1])
    expect(exposure).toBeLessThanOrEqual(2)
  })

  it('runs as its own user, keeps its data under /var/lib, restarts on failure, and is confined', () => {
    expect(setting('User')).toEqual(['scriptorium'])
    expect(setting('Environment').join(' ')).toContain('DATA_DIR=/var/lib/scriptorium')
    expect(setting('StateDirectory')).toEqual(['scriptorium'])
    expect(setting('Restart')).toEqual(['on-failure'])
    expect(setting('EnvironmentFile')).toEqual(['/etc/scriptorium/scriptorium.env'])
    expect(setting('NoNewPrivileges')).toEqual(['yes'])
    expect(setting('ProtectSystem')).toEqual(['strict'])
    expect(setting('ReadWritePaths')).toEqual(['/var/lib/scriptorium'])
    expect(setting('KillSignal')).toEqual(['SIGTERM'])
  })
})

describe('deploy/scriptorium.env.example', () => {
  it('configures the server for Caddy in front', () => {
    const config = readConfig({...envFile(envExample), DATA_DIR: join(scratch, 'data')})
    expect(config).toMatchObject({
      siteUrl: 'https://writer.example',
      trustProxy: 'loopback',
      httpsListener: false,
      host: '127.0.0.1',
      port: 3000,
      lakeToken: undefined,
    })
  })
})
