/**
 * The query worker: a replica of the lake's documents on its own thread, where GROQ runs.
 * groq-js evaluates in long chains of microtasks that no timer can interrupt, so a runaway query
 * on the main thread would block every request; here the main thread simply terminates the
 * worker when a query overruns its time limit (queryRunner.ts), and starts a fresh one.
 */
import {parentPort} from 'node:worker_threads'
import {LakeError} from './errors.ts'
import {evaluateJson, parseQuery} from './groq.ts'
import {documentsFor, type Perspective} from './perspective.ts'
import type {Doc} from './types.ts'

export type WorkerRequest =
  | {type: 'load'; docs: Doc[]}
  | {type: 'apply'; changes: Array<{id: string; after: Doc | null}>}
  | {
      type: 'query'
      id: number
      query: string
      params: Record<string, unknown>
      perspective: Perspective
      authenticated: boolean
      maxResultBytes: number
      sanity: {projectId: string; dataset: string}
    }

export type WorkerReply =
  | {ready: true}
  | {id: number; json: string}
  | {
      id: number
      error: {status: number; type: string; description: string; details: Record<string, unknown>}
    }

const docs = new Map<string, Doc>()
/** Per perspective and access, the documents a query sees; rebuilt after each change. */
const views = new Map<string, Doc[]>()

function view(perspective: Perspective, authenticated: boolean): Doc[] {
  const key = `${perspective}:${authenticated}`
  let docsFor = views.get(key)
  if (!docsFor) {
    docsFor = documentsFor([...docs.values()], perspective, authenticated)
    views.set(key, docsFor)
  }
  return docsFor
}

async function answer(request: Extract<WorkerRequest, {type: 'query'}>): Promise<WorkerReply> {
  try {
    const tree = parseQuery(request.query, request.params)
    const docsFor = view(request.perspective, request.authenticated)
    const json = await evaluateJson(tree, docsFor, request.params, request)
    return {id: request.id, json}
  } catch (error) {
    if (error instanceof LakeError) {
      return {
        id: request.id,
        error: {
          status: error.status,
          type: error.type,
          description: error.message,
          details: error.details,
        },
      }
    }
    const description = error instanceof Error ? error.message : String(error)
    return {
      id: request.id,
      error: {status: 500, type: 'internalServerError', description, details: {}},
    }
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  switch (request.type) {
    case 'load':
      docs.clear()
      for (const doc of request.docs) docs.set(doc._id, doc)
      views.clear()
      // Time limits start from here: booting and loading the replica is not the query's fault.
      parentPort?.postMessage({ready: true} satisfies WorkerReply)
      return
    case 'apply':
      for (const {id, after} of request.changes) {
        if (after) docs.set(id, after)
        else docs.delete(id)
      }
      views.clear()
      return
    case 'query':
      void answer(request).then((reply) => parentPort?.postMessage(reply))
  }
})
