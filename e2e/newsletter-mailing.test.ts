import sharp from 'sharp'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import type {Lake} from '../server/lake/index.ts'
import type {SmtpSink} from '../test/support/smtpSink.ts'
import {mailingId} from '../server/newsletter/mailing.ts'
import {decodedRaw, linkIn, mailParts} from '../server/newsletter/testing/mailLinks.ts'
import {
  mailTo,
  onServer,
  subscribeThroughMail,
  unsubscribeOneClick,
} from '../server/newsletter/testing/subscribeFlow.ts'
import {startServerWithMail, type ServerWithMail} from '../test/support/serverWithMail.ts'
import type {TestServer} from '../test/support/server.ts'

// The new-post mail on the running server with a real SMTP server (issue #26). The grace
// period is 1.2 s here (NEWSLETTER_GRACE_MINUTES=0.02).
let running: ServerWithMail
let sink: SmtpSink
let server: TestServer
let lake: Lake

beforeAll(async () => {
  running = await startServerWithMail({
    NEWSLETTER_GRACE_MINUTES: '0.02',
    NEWSLETTER_SEND_PER_MINUTE: '6000',
  })
  ;({server, sink} = running)
  lake = server.lake!
  // The newsletter's first look at start (posts already out are not news) is done.
  await vi.waitFor(() => expect(lake.getDocument('newsletter.state')).toBeDefined(), {
    timeout: 30_000,
  })
  await subscribeThroughMail(server, sink, 'active1@example.com')
  await subscribeThroughMail(server, sink, 'active2@example.com')
  await subscribeThroughMail(server, sink, 'pending@example.com', false)
  const leaving = await subscribeThroughMail(server, sink, 'leaving@example.com')
  expect(await unsubscribeOneClick(server, leaving)).toBe(200)
})
afterAll(() => running?.stop())

const block = (text: string) => ({
  _type: 'block',
  _key: 'b1',
  style: 'normal',
  markDefs: [],
  children: [{_type: 'span', _key: 's1', text, marks: []}],
})

function publish(slug: string, extra: Record<string, unknown> = {}) {
  return lake.mutate([
    {
      createOrReplace: {
        _id: `post-${slug}`,
        _type: 'post',
        title: `Title of ${slug}`,
        slug: {_type: 'slug', current: slug},
        date: '2026-11-26',
        category: 'General',
        excerpt: `Excerpt of ${slug}.`,
        body: [block(`Body of ${slug}.`)],
        ...extra,
      },
    },
  ])
}

const mailing = (slug: string) => lake.getDocument(mailingId(`post-${slug}`))
const newPostMails = (slug: string) =>
  sink.mails.filter((m) => m.headers.get('subject') === `New post: Title of ${slug}`)

describe('new-post mail', () => {
  it('a first publish mails each active subscriber exactly once, and no one else', async () => {
    await publish('first')
    await expect.poll(() => mailing('first')?.status, {timeout: 15_000}).toBe('sent')
    const mails = newPostMails('first')
    expect(mails.map((m) => m.envelopeTo[0]).sort()).toEqual([
      'active1@example.com',
      'active2@example.com',
    ])
    expect(mailing('first')).toMatchObject({recipients: 2, sent: 2, failed: 0})
    const [mail] = mails
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/)
    const raw = decodedRaw(mail)
    expect(raw).toContain(`${server.config.siteUrl}/blog/first`)
    expect(raw).toContain('Excerpt of first.')
    const unsubscribe = linkIn(mail, '/api/unsubscribe')
    expect(mail.headers.get('list-unsubscribe')).toBe(
      `<${unsubscribe}>, <mailto:no-reply@localhost?subject=unsubscribe>`,
    )
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    // No tracking: no image without a cover, and every link is the site's own, unrewritten.
    expect(raw).not.toMatch(/<img/)

    // Editing and republishing the post is not a first publish: nothing more is sent.
    await publish('first', {title: 'Title of first'})
    await publish('after-edit')
    await expect.poll(() => mailing('after-edit')?.status, {timeout: 15_000}).toBe('sent')
    expect(newPostMails('first')).toHaveLength(2)
  })

  it('a publish then an unpublish inside the grace period sends nothing; so does newsletter: false', async () => {
    await publish('oops')
    await publish('quiet', {newsletter: false})
    await expect.poll(() => mailing('oops')?.status).toBe('scheduled')
    await lake.mutate([{delete: {id: 'post-oops'}}])
    await expect.poll(() => mailing('oops')?.status).toBe('cancelled')
    await expect.poll(() => mailing('quiet')?.status).toBe('off')
    // A later post is mailed after both would have been due: its mails bound what was sent.
    await publish('later')
    await expect.poll(() => mailing('later')?.status, {timeout: 15_000}).toBe('sent')
    expect(Date.parse(String(mailing('later')?.dueAt))).toBeGreaterThan(
      Date.parse(String(mailing('oops')?.dueAt)),
    )
    expect(newPostMails('oops')).toEqual([])
    expect(newPostMails('quiet')).toEqual([])
    expect(newPostMails('later')).toHaveLength(2)
  })

  it('one-click unsubscribe from a new-post mail stops the next one', async () => {
    const mail = await mailTo(sink, 'active2@example.com', 2)
    const link = onServer(linkIn(mail, '/api/unsubscribe'), server.config.siteUrl, server.url)
    expect((await fetch(link, {method: 'POST', body: 'List-Unsubscribe=One-Click'})).status).toBe(
      200,
    )
    await publish('after-leave')
    await expect.poll(() => mailing('after-leave')?.status, {timeout: 15_000}).toBe('sent')
    expect(newPostMails('after-leave').map((m) => m.envelopeTo[0])).toEqual(['active1@example.com'])
  })

  it('a post with a cover shows it in the HTML part (absolute, with alt text), readable with images off', async () => {
    const png = await sharp({create: {width: 40, height: 30, channels: 3, background: '#c33'}})
      .png()
      .toBuffer()
    const upload = await fetch(
      `${server.url}/v2026-05-04/assets/images/production?filename=cover.png`,
      {
        method: 'POST',
        headers: {'content-type': 'image/png', authorization: `Bearer ${lake.token}`},
        body: new Uint8Array(png),
      },
    )
    expect(upload.status).toBe(200)
    const asset = ((await upload.json()) as {document: {_id: string}}).document
    await publish('covered', {
      mainImage: {
        _type: 'image',
        asset: {_type: 'reference', _ref: asset._id},
        alt: 'A red square on the desk',
      },
    })
    await expect.poll(() => mailing('covered')?.status, {timeout: 15_000}).toBe('sent')
    const [mail] = newPostMails('covered')
    const {text, html} = mailParts(mail)

    // The HTML part: one image, the cover, at an absolute address on the site, with its alt text.
    const images = [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0])
    expect(images).toHaveLength(1)
    const src = /\ssrc="([^"]+)"/.exec(images[0])?.[1] ?? ''
    expect(src.startsWith(`${server.config.siteUrl}/images/`)).toBe(true)
    // Sized for the mail (shared/imageUrl.ts), not the upload's full size.
    expect(new URL(src).searchParams.get('w')).toBe('1120')
    expect(images[0]).toContain('alt="A red square on the desk"')
    const image = await fetch(onServer(src, server.config.siteUrl, server.url))
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    // Images off: what is left is the alt text, the title, the excerpt and the link, as text.
    const imagesOff = html
      .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/g, '$1')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
    expect(imagesOff).toContain('Title of covered A red square on the desk Excerpt of covered.')
    expect(html).toContain(`<a href="${server.config.siteUrl}/blog/covered">Read the post</a>`)

    // The text part: the post without markup or image addresses.
    expect(
      text.startsWith(
        `Title of covered\n\nExcerpt of covered.\n\nRead it: ${server.config.siteUrl}/blog/covered\n`,
      ),
    ).toBe(true)
    expect(text).not.toMatch(/<|\/images\//)
  })
})
