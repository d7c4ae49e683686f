import {utcDay} from './salt.ts'

export const dayMs = 86_400_000

/** The Monday (UTC) of the week of `time`, `YYYY-MM-DD`: the unit of the weekly rollup. */
export function weekOf(time: number): string {
  const day = new Date(time).getUTCDay()
  return utcDay(time - ((day + 6) % 7) * dayMs)
}

/** `day` (`YYYY-MM-DD`) moved by `days` days. */
export const addDays = (day: string, days: number): string =>
  utcDay(Date.parse(`${day}T00:00:00Z`) + days * dayMs)
