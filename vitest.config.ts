import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // expect.poll's default (1 s) is a race on a busy machine; one that holds returns at once.
          expect: {poll: {timeout: 15_000}},
          include: ['{server,web,schemas,studio,scripts,content,test,bench}/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 30_000,
          // A whole server's start (seed, workers, warm pages) takes well over vitest's 10 s
          // default when the two cores are busy; CI must stay green on a busy machine.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          expect: {poll: {timeout: 15_000}},
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One Chromium at a time: the machine has 2 cores.
          fileParallelism: false,
          globalSetup: ['e2e/support/globalSetup.ts'],
        },
      },
    ],
  },
})
