import {randomUUID} from 'node:crypto'
import {ClientError, type SanityClient} from '@sanity/client'
import type {Doc, Lake} from '../server/lake/index.ts'

/**
 * How the GROQ suite's datasets reach the lake, one after another, into the one dataset:
 * - `raw`: the lake's own import path (`commitRaw`, as `importDocuments` uses it): the previous
 *   dataset deleted in one transaction, the next one created in another, documents stored
 *   exactly as the suite gives them;
 * - `client`: as a client fills a dataset through the HTTP API with the owner's @sanity/client:
 *   `delete *`, then one transaction of `createOrReplace` of the next dataset's documents. The
 *   lake stamps the system fields (`_rev`, `_createdAt`, `_updatedAt`), so groq-js is given the
 *   documents as the lake answered them. Ids the next dataset shares with the previous one are
 *   deleted and created again, so this is what catches a `*` whose order depends on the history
 *   of an id (server/lake/store/documentOrder.ts).
 */
export type LoadMode = 'raw' | 'client'

export const loadModes: readonly LoadMode[] = ['raw', 'client']

export function isLoadMode(value: string): value is LoadMode {
  return loadModes.some((mode) => mode === value)
}

/**
 * What the suite loads through: a lake in this process, to load each dataset directly, and the
 * owner's @sanity/client over loopback HTTP to it (bench/lakeInProcess.ts).
 */
export interface SuiteTarget {
  lake: Pick<Lake, 'commitRaw'>
  owner: SanityClient
}

/**
 * Ids /data/mutate refuses as plain writes (server/lake/releases/plainWrites.ts): release
 * documents and versions of releases, which only the release actions write. Three of the suite's
 * datasets hold some; in `client` mode they are loaded and cleared through the lake's import path,
 * in their place among the others, so the dataset's order is the suite's.
 */
const writtenOnlyByActions = (id: string) =>
  id.startsWith('_.releases.') || id.startsWith('versions.')

type RawChange = {id: string; before: Doc | null; after: Doc | null}

/** One transaction by the lake's import path (`commitRaw`): documents stored as they are. */
function commitRaw(t: SuiteTarget, changes: RawChange[]): void {
  if (changes.length === 0) return
  const mutations = (change: RawChange) =>
    change.after ? [{createOrReplace: change.after}] : [{delete: {id: change.id}}]
  t.lake.commitRaw({
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    author: 'p-owner',
    changes: changes.map((change) => ({...change, mutations: mutations(change)})),
  })
}

const deleted = (doc: Doc): RawChange => ({id: doc._id, before: doc, after: null})
const created = (doc: Doc): RawChange => ({id: doc._id, before: null, after: doc})

/**
 * Replaces the dataset `previous` (as stored) with `docs`; answers the documents as stored, in
 * the order of `*` that groq-js should evaluate over. In `client` mode the dataset is imported
 * twice, first in reverse order: the suite's neighbouring datasets mostly share ids in the same
 * order, and a `*` that kept a re-created document's old place would go unseen (it did: #35).
 */
export async function loadDataset(
  t: SuiteTarget,
  mode: LoadMode,
  docs: Doc[],
  previous: Doc[],
): Promise<Doc[]> {
  if (mode === 'raw') {
    commitRaw(t, previous.map(deleted))
    commitRaw(t, docs.map(created))
    return docs
  }
  const reversed = await importAsClient(t, [...docs].reverse(), previous)
  return importAsClient(t, docs, reversed)
}

/**
 * Sends a write again once if the connection failed before any answer (no ClientError): a
 * keep-alive connection the server closed as the client reused it (ECONNRESET, seen once in a
 * `--all` run on the loaded machine). @sanity/client retries only reads; both writes here are
 * idempotent (`delete *`, `createOrReplace`), as an importing client's retry would assume.
 */
async function withOneRetry<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (error instanceof ClientError) throw error
    return write()
  }
}

/** `delete *`, then `createOrReplace` of `docs` in one transaction, as a client imports. */
async function importAsClient(t: SuiteTarget, docs: Doc[], previous: Doc[]): Promise<Doc[]> {
  commitRaw(t, previous.filter((doc) => writtenOnlyByActions(doc._id)).map(deleted))
  await withOneRetry(() => t.owner.delete({query: '*'}))
  const stored: Doc[] = []
  let run: Doc[] = []
  const commitRun = async () => {
    if (run.length === 0) return
    let tx = t.owner.transaction()
    for (const doc of run) tx = tx.createOrReplace(doc)
    stored.push(...(await withOneRetry(() => tx.commit({returnDocuments: true}))))
    run = []
  }
  for (const doc of docs) {
    if (!writtenOnlyByActions(doc._id)) {
      run.push(doc)
      continue
    }
    await commitRun()
    commitRaw(t, [created(doc)])
    stored.push(doc)
  }
  await commitRun()
  return stored
}
