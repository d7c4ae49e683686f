/** A JSON object (not an array, not null): what request bodies, stored rows and messages are checked for. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
