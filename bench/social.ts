import {InboxSink} from '../scripts/inboxSink.ts'
import {startServerProcess} from './serverProcess.ts'
import {fmt, percentile} from './stats.ts'
import {publishUnderReads} from './publishUnderReads.ts'
import type {Section} from './types.ts'

/**
 * A publish delivered to 1,000 followers' inboxes on a local sink (scripts/inboxSink.ts, one
 * loopback server answering 202, each follower its own inbox, so 1,000 signed POSTs), at an
 * unlimited send rate, while `/blog` is read one request after another: how long the delivery
 * takes, and the server's `/blog` p99 meanwhile and at rest (docs/social-web.md).
 */
const followerCount = 1000
const token = 'bench-social-owner-token-0123456789abcdef0123456789'

export async function run(): Promise<Omit<Section, 'name'>> {
  const sink = await new InboxSink().listen()
  const server = await startServerProcess({
    env: {
      LAKE_TOKEN: token,
      FEDERATION_ALLOW_PRIVATE: '1',
      // Unbounded, to see what a delivery as fast as the server can sign costs the readers.
      FEDERATION_SEND_PER_SECOND: '100000',
    },
  })
  try {
    const delivered = () => new Set(sink.posts.map((p) => p.inbox)).size >= followerCount
    const {seconds, startWall, rest, busy, limit, met} = await publishUnderReads({
      url: server.url,
      token,
      audience: Array.from({length: followerCount}, (_, i) => ({
        _id: `follower.bench${i}`,
        _type: 'socialFollower',
        actor: `${sink.url}/users/${i}`,
        inbox: `${sink.url}/users/${i}/inbox`,
        followedAt: '2026-11-01T00:00:00.000Z',
      })),
      post: {
        _id: 'post-bench-social',
        _type: 'post',
        title: 'A post for 1,000 followers',
        slug: {_type: 'slug', current: 'bench-social'},
        date: '2026-11-28',
        excerpt: 'Delivered to every follower.',
      },
      sent: sink.until(delivered),
    })
    const firstAt = Math.min(...sink.posts.map((p) => p.at))
    return {
      title: 'Social web: a publish delivered to 1,000 followers',
      tables: [
        {
          title: 'Delivering to a local inbox sink (no rate limit), /blog read meanwhile',
          columns: [
            'inboxes',
            'delivery time',
            'first POST after',
            'POSTs/s',
            '/blog p99 idle',
            '/blog p99 delivering',
            '/blog requests delivering',
          ],
          rows: [
            [
              followerCount,
              `${fmt(seconds)} s`,
              `${fmt((firstAt - startWall) / 1000)} s`,
              fmt(sink.posts.length / seconds),
              `${fmt(percentile(rest, 99))} ms`,
              `${fmt(percentile(busy, 99))} ms`,
              busy.length,
            ],
          ],
        },
      ],
      notes: [
        `Target (the hostile section's rule): /blog p99 while delivering ≤ max(2 × at rest, 50 ms) = ${fmt(limit)} ms: ${met ? 'MET' : 'MISSED'} (${fmt(percentile(busy, 99))} ms).`,
        'The time runs from the publish commit to the 1,000th inbox POSTed (each signed by Fedify, RFC 9421 first); at the default FEDERATION_SEND_PER_SECOND=20 the same delivery takes 50 s by design.',
        'The sink verifies no signature: what is measured is the sending server. bench/social.ts.',
      ],
      data: {seconds, rest, busy},
    }
  } finally {
    await server.stop()
    await sink.close()
  }
}
