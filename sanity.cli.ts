import {defineCliConfig} from 'sanity/cli'
import {localProjectId} from './shared/constants.ts'
import {studioDataset} from './studio/env.ts'

/**
 * The Sanity CLI's view of this project: used offline by `npm run typegen` (schema extract and
 * typegen), never to deploy — the Studio is built by scripts/build.ts and served by our server.
 */
export default defineCliConfig({
  api: {projectId: localProjectId, dataset: studioDataset},
  typegen: {
    path: ['./web/**/*.{ts,tsx}', './shared/**/*.ts', './server/**/*.ts'],
    // TYPEGEN_DIR lets scripts/typegenCheck.ts generate elsewhere and compare with the committed files.
    schema: `${process.env.TYPEGEN_DIR ?? '.'}/schemas/schema.json`,
    generates: `${process.env.TYPEGEN_DIR ?? '.'}/shared/sanity.types.ts`,
  },
})
