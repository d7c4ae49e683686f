import type {Config} from 'sanity'
import {expect, it, vi} from 'vitest'

// The Studio's config as a hosted build reads it (SANITY_STUDIO_PROJECT_ID set at build time,
// docs/hosted.md): a plain sanity.io Studio, with releases and scheduled drafts on as in local
// mode. Every browser test runs the local path; this one loads the hosted path, without network.
it('hosted: the project id, no local lake host, login or client factory; releases and scheduled drafts on', async () => {
  vi.stubEnv('SANITY_STUDIO_PROJECT_ID', 'abc123xy')
  vi.stubEnv('SANITY_STUDIO_DATASET', 'staging')
  try {
    const {default: loaded} = await import('../sanity.config.ts')
    // defineConfig returns the single workspace as given.
    const config = loaded as Exclude<Config, unknown[]>
    expect(config).toMatchObject({
      projectId: 'abc123xy',
      dataset: 'staging',
      basePath: '/studio',
      releases: {enabled: true},
      scheduledDrafts: {enabled: true},
      scheduledPublishing: {enabled: false},
      beta: {eventsAPI: {releases: true}},
      tasks: {enabled: false},
      mediaLibrary: {enabled: false},
      document: {comments: {enabled: false}},
    })
    for (const local of ['apiHost', 'auth', 'unstable_clientFactory'])
      expect(config, local).not.toHaveProperty(local)
  } finally {
    vi.unstubAllEnvs()
  }
}, 90_000)
