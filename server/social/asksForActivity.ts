/** The profile that marks JSON-LD as ActivityStreams (ActivityPub §3.2). */
const activityStreams = 'https://www.w3.org/ns/activitystreams'

/** A media range's quality (RFC 9110 §12.4.2); 0 means "not this". */
function quality(params: string[]): number {
  const q = params.find((p) => p.trim().toLowerCase().startsWith('q='))
  if (!q) return 1
  const value = Number.parseFloat(q.trim().slice(2))
  return Number.isFinite(value) ? value : 1
}

/**
 * Does an `Accept` header ask for an ActivityPub object? ActivityPub §3.2 names exactly two
 * forms a client sends: `application/activity+json`, and `application/ld+json` with the
 * ActivityStreams profile. A browser's `text/html,…,*\/*` or bare JSON-LD asks for the page.
 */
export function asksForActivity(accept: string | undefined): boolean {
  if (!accept) return false
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';')
    const media = type.trim().toLowerCase()
    if (quality(params) <= 0) return false
    if (media === 'application/activity+json') return true
    if (media !== 'application/ld+json') return false
    return params.some((p) => {
      const [key = '', value = ''] = p.split('=', 2).map((s) => s.trim())
      return (
        key.toLowerCase() === 'profile' &&
        value.replace(/^"|"$/g, '').split(/\s+/).includes(activityStreams)
      )
    })
  })
}
