import {definePlugin} from 'sanity'
import {ReadersTool} from './ReadersTool.tsx'

/**
 * The Studio's "Readers" tool: the server's reader statistics (docs/reader-statistics.md). Local
 * mode only: a hosted-mode server keeps the tables but does not serve them yet.
 */
export const readersTool = definePlugin({
  name: 'scriptorium-readers',
  tools: [{name: 'readers', title: 'Readers', component: ReadersTool}],
})
