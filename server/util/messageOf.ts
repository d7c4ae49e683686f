/** The message of anything thrown, for answers and logs (JSON.parse, fs and workers throw Errors). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
