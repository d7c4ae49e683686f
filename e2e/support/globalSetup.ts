import {existsSync} from 'node:fs'
import {ensureChromium} from '../../scripts/chromium.ts'

/** Runs once before the browser tests: Chromium present, and the build the server serves. */
export default function setup(): void {
  process.env.CHROME_PATH = ensureChromium()
  if (!existsSync('dist/client') && existsSync('web/entry.client.tsx')) {
    throw new Error(
      'dist/ is missing: run `npm run build` (npm test does) before the browser tests',
    )
  }
}
