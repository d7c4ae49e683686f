import type {RawData} from 'ws'
import {isRecord} from '../../util/isRecord.ts'

/** JSON-RPC error code for a missing, wrong or ended authorization (the Studio's bifur client's). */
export const unauthorizedCode = 4001

/** JSON-RPC error code for a client refused by the failed-token throttle (HTTP's 429). */
export const tooManyAttemptsCode = 4029

/** A JSON-RPC 2.0 request as the Studio's bifur client sends it, checked for shape. */
export type Rpc = {id?: string | number; method?: unknown; params: Record<string, unknown>}

/** A JSON-RPC request object, or undefined for anything else (arrays, scalars, null). */
export function parseRpc(data: RawData): Rpc | undefined {
  let message: unknown
  try {
    message = JSON.parse(data.toString())
  } catch {
    return undefined
  }
  if (!isRecord(message)) return undefined
  const id =
    typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined
  const params = message.params === undefined ? {} : message.params
  if (!isRecord(params)) return undefined
  return {id, method: message.method, params}
}
