import type {Lake} from '../../server/lake/index.ts'

/** Resolves once `test` holds of the document `id` (checked now, then after each commit). */
export function untilDoc(lake: Lake, id: string, test: (doc: unknown) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (test(lake.getDocument(id))) return resolve()
    const stop = lake.onCommit(() => {
      if (!test(lake.getDocument(id))) return
      stop()
      resolve()
    })
  })
}
