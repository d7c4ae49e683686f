import {createClient, type ClientConfig} from '@sanity/client'
import {visionTool} from '@sanity/vision'
import {defineConfig} from 'sanity'
import {structureTool} from 'sanity/structure'
import {schemaTypes, singletonTypes} from './schemas/index.ts'
import {presentation} from './studio/presentation/index.ts'
import {readersTool} from './studio/readers/index.ts'
import {postDocumentNode} from './studio/readers/postDocument.ts'
import {withoutInboxTemplates} from './studio/structure/inbox.ts'
import {structure} from './studio/structure/index.ts'
import {withUploadReasons} from './studio/uploads/uploadReasons.tsx'
import {singletonAwareActions} from './studio/structure/singletons.ts'
import {followerActions} from './studio/structure/followerActions.tsx'
import {apiVersion, localProjectId} from './shared/constants.ts'
import {hostedProjectId, localAuth, studioDataset} from './studio/env.ts'

/**
 * The embedded Studio (docs/studio.md). Local mode (default): the Studio talks to this server's
 * lake at its own origin, logs in with the owner password. Hosted mode (SANITY_STUDIO_PROJECT_ID
 * set at build time): a normal sanity.io Studio.
 */
const local = hostedProjectId === undefined

export default defineConfig({
  name: 'default',
  title: 'Scriptorium',
  basePath: '/studio',
  projectId: hostedProjectId ?? localProjectId,
  dataset: studioDataset,
  ...(local && {
    // The lake sits at the server root like api.sanity.io; no <projectId>.host subdomain.
    apiHost: window.location.origin,
    unstable_clientFactory: (options: ClientConfig) =>
      createClient({...options, useProjectHostname: false}),
    auth: localAuth(window.location.origin),
  }),
  plugins: [
    // Local mode: a post's document also shows its own readers (studio/readers/postDocument.ts).
    structureTool({structure, ...(local && {defaultDocumentNode: postDocumentNode})}),
    presentation,
    visionTool({defaultApiVersion: `v${apiVersion}`, datasets: [studioDataset]}),
    // Reader statistics (docs/reader-statistics.md): served by a local server only.
    ...(local ? [readersTool()] : []),
  ],
  schema: {
    types: schemaTypes,
    // A singleton is never created from a template: the structure opens its one document.
    templates: (templates) =>
      templates.filter(({schemaType}) => !singletonTypes.includes(schemaType)),
  },
  // A refused upload's reason (too many megapixels, too large, corrupt) in a toast, not only in
  // the browser console (studio/uploads/uploadReasons.tsx).
  form: {
    image: {assetSources: (sources) => sources.map(withUploadReasons)},
    file: {assetSources: (sources) => sources.map(withUploadReasons)},
  },
  // Content Releases and scheduled drafts (a one-document release with a time): the lake speaks
  // their actions and publishes on time (docs/studio-protocol.md §h); hosted, the plan must
  // include them (docs/hosted.md). The older scheduled-publishing plugin calls a `/schedules`
  // API the lake does not serve, and releases replace it.
  releases: {enabled: true},
  scheduledDrafts: {enabled: true},
  scheduledPublishing: {enabled: false},
  // A release's Activity panel reads the lake's release events (GET
  // /data/history/{dataset}/events/releases/{id}, docs/studio-protocol.md §h); sanity.io serves
  // the same endpoint. Document history keeps its default.
  beta: {eventsAPI: {releases: true}},
  // A single-owner studio: switch off what serves teams (docs/studio-protocol.md §g.4).
  tasks: {enabled: false},
  mediaLibrary: {enabled: false},
  announcements: {enabled: false},
  document: {
    comments: {enabled: false},
    // Only the contact relay writes messages: no "Contact message" in any create menu.
    newDocumentOptions: (templates) => withoutInboxTemplates(templates),
    // Singletons: publish and discard only (no duplicate, no delete; studio/structure/singletons.ts).
    // Followers: delete (remove) or block (studio/structure/followerActions.tsx).
    actions: (actions, {schemaType}) =>
      followerActions(singletonAwareActions(actions, schemaType), schemaType),
  },
})
