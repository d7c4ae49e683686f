import {useSyncExternalStore} from 'react'

const subscribe = () => () => {}

/**
 * False on the server and during hydration, true afterwards: lets a component render what the
 * server rendered first (no hydration mismatch) and switch to browser-only output right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
