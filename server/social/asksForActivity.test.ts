import {describe, expect, it} from 'vitest'
import {asksForActivity} from './asksForActivity.ts'

describe('asking for an ActivityPub object (ActivityPub §3.2)', () => {
  it('is activity+json, or ld+json with the ActivityStreams profile', () => {
    expect(asksForActivity('application/activity+json')).toBe(true)
    expect(
      asksForActivity('application/ld+json; profile="https://www.w3.org/ns/activitystreams"'),
    ).toBe(true)
    // What Mastodon sends when it fetches an object.
    expect(
      asksForActivity(
        'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams", text/html;q=0.1',
      ),
    ).toBe(true)
  })

  it('is not a browser, bare JSON-LD, another profile, or a refusal by q=0', () => {
    expect(asksForActivity(undefined)).toBe(false)
    expect(asksForActivity('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(
      false,
    )
    expect(asksForActivity('application/ld+json')).toBe(false)
    expect(asksForActivity('application/ld+json; profile="https://schema.org"')).toBe(false)
    expect(asksForActivity('application/json')).toBe(false)
    expect(asksForActivity('application/activity+json;q=0, text/html')).toBe(false)
  })
})
