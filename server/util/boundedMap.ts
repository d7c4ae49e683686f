/**
 * Stores `value` under `key` as the map's newest entry (Maps iterate in insertion order), then
 * forgets the oldest entries beyond `max`: the bounded memory of per-client and per-token state
 * that a flood of new keys must not grow.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  for (const oldest of map.keys()) {
    if (map.size <= max) break
    map.delete(oldest)
  }
}
