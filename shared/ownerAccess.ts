/**
 * Facts about the owner's access that the lake (server/lake/auth.ts) enforces and the server's
 * configuration (server/env.ts) checks and documents, written once below both so the
 * configuration needs nothing from the lake. Imports nothing.
 */

/** The owner token guards every write: a short one can be guessed (LAKE_TOKEN is refused below it). */
export const minLakeTokenLength = 32

/**
 * The documented defaults, in the units of SESSION_IDLE_HOURS and SESSION_MAX_DAYS (server/env.ts
 * reads those): a week unused is long enough for an owner who writes weekly, and a month bounds
 * what a stolen token is worth.
 */
export const defaultSessionIdleHours = 168
export const defaultSessionMaxDays = 30
