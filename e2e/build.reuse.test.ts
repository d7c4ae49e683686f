import {execFileSync} from 'node:child_process'
import {readlinkSync} from 'node:fs'
import {expect, it} from 'vitest'

// npm start runs `scripts/build.ts --if-changed`: right after npm test's build, nothing it is
// made from has changed, so it keeps dist as it is and says so (scripts/build/inputs.ts decides;
// scripts/build/inputs.test.ts shows that a changed source rebuilds).
it('reuses the build npm test just made instead of building again', () => {
  const before = readlinkSync('dist')
  const output = execFileSync(process.execPath, ['scripts/build.ts', '--if-changed'], {
    encoding: 'utf8',
  })
  expect(output).toContain('[build] up to date')
  expect(readlinkSync('dist')).toBe(before)
})
