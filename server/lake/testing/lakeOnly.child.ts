/**
 * A lake-only server in a process of its own: the Sanity HTTP API on a Lake behind the app's
 * client identity, nothing else of the product, so that a test can kill, or measure the memory
 * of, exactly the process that owns the lake (the durability and worker-memory tests).
 * Prints `listening <port>`. Env: DATA_DIR, LAKE_TOKEN (generated into DATA_DIR when absent).
 */
import type {AddressInfo} from 'node:net'
import {serve} from '@hono/node-server'
import {Hono} from 'hono'
import {defaultDataset, localProjectId} from '../../../shared/constants.ts'
import {clientMiddleware} from '../../http/clientAddress.ts'
import {errorResponse} from '../../http/errorResponse.ts'
import {Lake} from '../lake.ts'
import {registerDataApi} from '../api/dataApi.ts'

const dataDir = process.env.DATA_DIR
if (!dataDir) throw new Error('DATA_DIR is required')
const lake = new Lake({
  dataDir,
  projectId: localProjectId,
  dataset: defaultDataset,
  token: process.env.LAKE_TOKEN,
})
const app = new Hono()
app.use(clientMiddleware('none'))
app.onError(errorResponse)
registerDataApi(app, lake)
const server = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'}, (info: AddressInfo) => {
  console.log(`listening ${info.port}`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
