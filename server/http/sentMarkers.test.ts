import {describe, expect, it} from 'vitest'
import {maxSentMarkers, SentMarkers, sentMarkerTtlMs, withSentMarker} from './sentMarkers.ts'

describe('SentMarkers', () => {
  it('a token is taken once; a reload or a made-up token gets nothing', () => {
    const markers = new SentMarkers()
    const token = markers.issue()
    expect(token).toMatch(/^[\w-]{22}$/)
    expect(markers.take('made-up')).toBe(false)
    expect(markers.take(token)).toBe(true)
    expect(markers.take(token)).toBe(false)
    expect(markers.size).toBe(0)
  })

  it('a token not taken within its time expires', () => {
    let now = 0
    const markers = new SentMarkers(() => now)
    const token = markers.issue()
    now += sentMarkerTtlMs
    expect(markers.take(token)).toBe(false)
  })

  it('holds at most maxSentMarkers, dropping the oldest and the expired', () => {
    let now = 0
    const markers = new SentMarkers(() => now)
    const oldest = markers.issue()
    for (let i = 1; i < maxSentMarkers; i++) markers.issue()
    expect(markers.size).toBe(maxSentMarkers)
    const newest = markers.issue()
    expect(markers.size).toBe(maxSentMarkers)
    expect(markers.take(oldest)).toBe(false)
    now += sentMarkerTtlMs + 1
    markers.issue()
    expect(markers.size).toBe(1)
    expect(markers.take(newest)).toBe(false)
  })

  it('adds a fresh marker to an address, replacing one already there, relative staying relative', () => {
    const markers = new SentMarkers()
    expect(withSentMarker('/contact', markers)).toMatch(/^\/contact\?sent=[\w-]{22}$/)
    expect(withSentMarker('https://site.example/contact?sent=old#form', markers)).toMatch(
      /^https:\/\/site\.example\/contact\?sent=[\w-]{22}#form$/,
    )
  })
})
