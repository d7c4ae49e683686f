import {useEffect, useState} from 'react'
import type {StatsTable} from './statsTables.ts'
import {useStatsRequest} from './statsRequest.ts'

/** A value the server is asked for: loading, loaded, or the reason it failed. */
export type Loaded<T> =
  {state: 'loading'} | {state: 'ready'; value: T} | {state: 'error'; message: string}

/**
 * Fetches JSON from `/api/stats/<path>` whenever `path` changes, and again every `refreshMs` if
 * given (keeping the last answer on screen meanwhile); a request overtaken by the next one (the
 * period switched) is aborted, so an older answer never replaces a newer one.
 */
export function useStatsJson<T>(
  path: string,
  read: (json: unknown) => T,
  refreshMs?: number,
): Loaded<T> {
  const request = useStatsRequest()
  const [loaded, setLoaded] = useState<Loaded<T>>({state: 'loading'})
  const [round, setRound] = useState(0)
  useEffect(() => {
    if (refreshMs === undefined) return
    const timer = setInterval(() => setRound((n) => n + 1), refreshMs)
    return () => clearInterval(timer)
  }, [refreshMs])
  // A new path shows 'loading' in the same render, not one frame of the old path's answer
  // (React's "adjusting state when a prop changes").
  const [loadedPath, setLoadedPath] = useState(path)
  if (loadedPath !== path) {
    setLoadedPath(path)
    setLoaded({state: 'loading'})
  }
  useEffect(() => {
    const controller = new AbortController()
    request(path, controller.signal)
      .then(async (response) => read(await response.json()))
      .then(
        (value) => setLoaded({state: 'ready', value}),
        (error: unknown) => {
          if (!controller.signal.aborted)
            setLoaded({
              state: 'error',
              message: error instanceof Error ? error.message : String(error),
            })
        },
      )
    return () => controller.abort()
  }, [path, read, request, round])
  return loaded
}

/** A table as the server sends it (`{columns, rows}`), or an error if it is not one. */
function readTable(json: unknown): StatsTable {
  if (
    typeof json === 'object' &&
    json !== null &&
    'columns' in json &&
    'rows' in json &&
    Array.isArray(json.columns) &&
    Array.isArray(json.rows)
  )
    return {
      columns: json.columns.map(String),
      rows: json.rows.map((row: unknown) => (Array.isArray(row) ? row.map(cellOf) : [])),
    }
  throw new Error('Reader statistics: not a table')
}

const cellOf = (cell: unknown): string | number => (typeof cell === 'number' ? cell : String(cell))

/** A table of the last `days` days; `page` narrows the daily table to that one page. */
export const useStatsTable = (name: string, days: number, page?: string): Loaded<StatsTable> =>
  useStatsJson(
    `${name}.json?days=${days}${page === undefined ? '' : `&page=${encodeURIComponent(page)}`}`,
    readTable,
  )
