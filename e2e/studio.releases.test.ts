import {createClient, type SanityClient} from '@sanity/client'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {defaultDataset, localProjectId} from '../shared/constants.ts'
import {
  createFromMenu,
  fillPostFields,
  goInStudio,
  logIn,
  setPerspective,
  startStudio,
  waitForTitle,
  type StudioUnderTest,
} from './studio-driver.ts'
import type {TestServer} from '../test/support/server.ts'
import {categoryId, categoryRef} from '../content/siteCopy.ts'
import {publishCategories, type Post} from './studio-lake.ts'

// Content Releases in the real Studio on the local lake: the Releases tool creates a release and
// shows it scheduled; the lake publishes it on time, and the public site (with no one logged
// in) shows the change on /blog and in the RSS feed within 5 s of its time, not before. A
// scheduled draft's time is a whole minute (25-85 s away): its watch runs while the release test
// works, and the last test awaits it, so the file does not idle for it.
let running: StudioUnderTest
let server: TestServer
let page: Page
let watch: StudioUnderTest['watch']
let owner: SanityClient
/** The status of each answer to the Studio's release Activity requests. */
const activityAnswers: number[] = []
/** The scheduled draft's watch on the public pages, started when the draft is scheduled. */
let draftOnTime: Promise<void> | undefined

const before = 'A post before its release'
const after = 'A post rewritten by its release'
const newPost = 'A new post born in a release'

/** What anyone sees: the blog's list and the RSS feed, fetched without credentials. */
async function publicPages(): Promise<{blog: string; rss: string; at: number}> {
  const [blog, rss] = await Promise.all(
    ['/blog', '/rss.xml'].map(async (path) => (await fetch(`${server.url}${path}`)).text()),
  )
  return {blog, rss, at: Date.now()}
}

/**
 * Before `publishAt` the public pages show `before` and none of `after`; from it on, within 5 s,
 * every title of `after` on /blog and in the feed. Each answer is checked against when it arrived.
 */
async function expectPublishedOnTime(publishAt: number, before: string, after: string[]) {
  let seenBefore = false
  for (;;) {
    const {blog, rss, at} = await publicPages()
    const shown = after.flatMap((title) => [blog, rss].filter((text) => text.includes(title)))
    if (shown.length > 0) expect(at).toBeGreaterThanOrEqual(publishAt)
    if (shown.length === 0) {
      expect(blog).toContain(before)
      expect(rss).toContain(before)
      seenBefore ||= at < publishAt
    }
    // All at once: one transaction publishes the whole release.
    if (shown.length === 2 * after.length) break
    expect(at - publishAt).toBeLessThan(5000)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  expect(seenBefore).toBe(true)
  expect(Date.now() - publishAt).toBeLessThan(5000)
}

/** Polls what the lake holds (in process) until `check` holds: the Studio commits asynchronously. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the lake')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

type Release = {_id: string; state: string; publishAt?: string; metadata: Record<string, unknown>}

/** The release documents, as the owner reads them. */
const releases = () =>
  owner.fetch<Release[]>('*[_type == "system.release"]', {}, {perspective: 'raw'})

/** Polls the lake until a release titled `title` exists; returns its id. */
async function releaseTitled(title: string): Promise<string> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = (await releases()).find((doc) => doc.metadata.title === title)
    if (found) return found._id.slice('_.releases.'.length)
    if (Date.now() > deadline) throw new Error(`no release "${title}" was created`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('Content Releases in the Studio', () => {
  beforeAll(async () => {
    running = await startStudio({SEED: '0'})
    ;({server, watch, page} = running)
    await publishCategories(server.lake)
    owner = createClient({
      projectId: localProjectId,
      dataset: defaultDataset,
      apiVersion: '2025-02-19',
      apiHost: server.url,
      useProjectHostname: false,
      useCdn: false,
      token: server.lake!.token,
    })
    await owner.create({
      _id: 'release-post',
      _type: 'post',
      title: before,
      slug: {_type: 'slug', current: 'release-post'},
      date: '2026-01-05',
      excerpt: 'A post that a release rewrites.',
      category: categoryRef('General'),
    })
    page.on('response', (response) => {
      if (response.url().includes('/events/releases/')) activityAnswers.push(response.status())
    })
    await logIn(page, server.url, server.lake!.token)
  })

  afterAll(async () => {
    await running?.stop()
  })

  it('schedules a single post from its publish menu (a scheduled draft)', async () => {
    // The published post, and its draft whose publish is scheduled.
    for (const [_id, title] of [
      ['draft-post', 'A draft post before'],
      ['drafts.draft-post', 'A draft post on time'],
    ])
      await owner.create({
        _id,
        _type: 'post',
        title,
        slug: {_type: 'slug', current: 'draft-post'},
        date: '2026-01-06',
        excerpt: 'A post whose draft is scheduled.',
        category: categoryRef('General'),
      })
    await goInStudio(page, '/studio/structure/posts;draft-post')
    await waitForTitle(page, 'A draft post on time')
    await page.getByRole('button', {name: 'Open document actions'}).click()
    await page.getByRole('menuitem', {name: /Schedule publish/}).click()
    // The dialog takes minutes: the next whole minute at least 25 s away, in UTC (Chromium's
    // zone here, which the Studio shows the owner).
    const publishAt = Math.ceil((Date.now() + 25_000) / 60_000) * 60_000
    const typed = new Date(publishAt)
      .toLocaleString('en-US', {
        timeZone: 'UTC',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
      .replace(/, (\d\d:\d\d)$/, ' $1')
    const dialog = page.getByRole('dialog')
    await dialog.locator('input').first().fill(typed)
    await dialog.locator('input').first().press('Tab')
    await dialog.getByRole('button', {name: 'Schedule', exact: true}).click()
    const scheduledDraft = async () =>
      (await releases()).find(
        (doc) => doc.state === 'scheduled' && doc.metadata.cardinality === 'one',
      )
    await until(async () => (await scheduledDraft()) !== undefined)
    const release = await scheduledDraft()
    expect(release?.publishAt).toBe(new Date(publishAt).toISOString())
    // Once scheduled, the Studio's document pane shows the scheduled draft (its pane parameter
    // `scheduledDraft`, a navigation of its own): the owner goes on from there, not meanwhile.
    const releaseId = release?._id.slice('_.releases.'.length)
    await page.waitForURL((url) =>
      decodeURIComponent(url.href).includes(`scheduledDraft=${releaseId}`),
    )

    // The whole minute is 25-85 s away: rather than idle, the public pages are watched from now
    // on while the release test runs, and the last test awaits the verdict.
    draftOnTime = expectPublishedOnTime(publishAt, 'A draft post before', ['A draft post on time'])
    // Awaited (and so reported) by the last test; until then a failure must not go unhandled.
    draftOnTime.catch(() => {})
    expect(watch.consoleErrors).toEqual([])
  })

  it('creates a release in the Releases tool, shows it scheduled, and the site gets it on time', async () => {
    await goInStudio(page, '/studio/releases')
    await page.getByRole('button', {name: 'New release'}).click()
    await page.getByTestId('release-form-title').fill('Spring issue')
    await page.getByTestId('submit-release-button').click()
    const releaseId = await releaseTitled('Spring issue')

    // The owner picks the release as the Studio's perspective, opens the post, adds it to the
    // release from the document's banner and retypes its title there.
    // (Creating it opened the release's page with the release as the perspective; the owner
    // goes back to drafts first, so that the picker is what selects it.)
    await page.waitForURL(new RegExp(`/studio/releases/${releaseId}`))
    await setPerspective(page, 'drafts')
    await goInStudio(page, '/studio/structure/posts;release-post')
    await waitForTitle(page, before)
    await page.getByTestId('global-perspective-menu-button').click()
    await page.getByRole('menuitem', {name: /Spring issue/}).click()
    await page.waitForURL(new RegExp(`perspective=${releaseId}`))
    await page.getByRole('button', {name: 'Add to release'}).click()
    const versionId = `versions.${releaseId}.release-post`
    await until(() => server.lake!.getDocument(versionId) !== undefined)
    const title = page.getByTestId('field-title').locator('input')
    await title.click()
    await page.keyboard.press('Control+A')
    await page.keyboard.type(after)
    await until(() => server.lake!.getDocument(versionId)?.title === after)
    expect(server.lake!.getDocument('release-post')?.title).toBe(before)

    // And a new post, in the release only: the create menu makes it there.
    const {id} = await createFromMenu(page, 'Post')
    await fillPostFields(page, {
      title: newPost,
      date: '2026-01-07',
      excerpt: 'A post that exists only in a release until it is published.',
      category: 'General',
    })
    await until(
      () =>
        (server.lake!.getDocument(`versions.${releaseId}.${id}`) as Post | undefined)?.category
          ?._ref === categoryId('General') &&
        server.lake!.getDocument(`drafts.${id}`) === undefined,
    )
    expect(server.lake!.getDocument(id)).toBeUndefined()

    // The release's page lists both, and its Activity panel shows them added.
    await goInStudio(page, `/studio/releases/${releaseId}`)
    await page.getByText(after).first().waitFor()
    await page.getByText(newPost).first().waitFor()
    await page.getByRole('button', {name: 'Activity'}).click()
    await expect.poll(() => page.getByText('Added a document version').count()).toBe(2)
    await page.getByText('Created the Spring issue release').first().waitFor()
    // Scheduled, the release's page says so and offers to unschedule; the owner does, and the
    // lake has it active again.
    await owner.releases.schedule({
      releaseId,
      publishAt: new Date(Date.now() + 600_000).toISOString(),
    })
    await page
      .getByText(/Scheduled/)
      .first()
      .waitFor()
    await page.getByRole('button', {name: 'Unschedule release'}).click()
    await page.getByRole('dialog').getByRole('button', {name: 'Unschedule release'}).click()
    await until(() => server.lake!.getDocument(`_.releases.${releaseId}`)?.state === 'active')
    // The Activity panel shows one of two events of a kind less than 1 s apart (sanity's
    // `deduplicateEvents`), and the events API stamps whole seconds: a schedule in the second
    // after this unschedule could read as the first schedule again. The owner schedules once
    // the lake's clock is 2 s past it, as anyone clicking through the dialog would be.
    const unscheduledAt = Date.parse(
      String(server.lake!.getDocument(`_.releases.${releaseId}`)?._updatedAt),
    )
    await until(() => Date.now() >= unscheduledAt + 2_000)

    // The release's time 20 s ahead, written as the page's time picker writes it
    // (`metadata.intendedPublishAt`; the picker itself takes whole minutes, too coarse for 20 s),
    // then scheduled from the Studio's dialog, which offers that time.
    const publishAt = Date.now() + 20_000
    await owner.releases.edit({
      releaseId,
      patch: {set: {'metadata.intendedPublishAt': new Date(publishAt).toISOString()}},
    })
    const shown = new Date(publishAt).toLocaleString('en-US', {
      timeZone: 'UTC',
      dateStyle: 'medium',
      timeStyle: 'medium',
    })
    await page.getByText(shown).first().waitFor()
    await page.getByTestId('schedule-button').click()
    await page.getByRole('dialog').getByRole('button', {name: 'Yes, schedule'}).click()
    await until(() => server.lake!.getDocument(`_.releases.${releaseId}`)?.state === 'scheduled')
    // The Activity panel, still open, follows: scheduled, unscheduled, scheduled again.
    // The panel refetches the events after the change: give it longer than poll's default 1 s.
    await expect
      .poll(() => page.getByText('Marked as scheduled').count(), {timeout: 15_000})
      .toBe(2)
    await page.getByText('Marked as unscheduled').first().waitFor()
    expect(server.lake!.getDocument(`_.releases.${releaseId}`)?.publishAt).toBe(
      new Date(publishAt).toISOString(),
    )

    // The Releases tool lists it with its lock.
    await page.getByTestId('back-to-releases-button').click()
    const row = page.locator('tr').filter({hasText: 'Spring issue'})
    await row.getByTestId('release-lock-icon').waitFor({timeout: 30_000})

    await expectPublishedOnTime(publishAt, before, [after, newPost])
    expect(await owner.releases.get({releaseId})).toMatchObject({state: 'published'})

    expect(watch.consoleErrors).toEqual([])
    expect(watch.foreignRequests).toEqual([])
    // The Activity came from the lake's release events, every answer a 200.
    expect(activityAnswers.length).toBeGreaterThan(0)
    expect(new Set(activityAnswers)).toEqual(new Set([200]))
  })

  it('publishes the scheduled draft on time, not before (watched since it was scheduled)', async () => {
    expect(draftOnTime).toBeDefined()
    await draftOnTime
    expect(watch.consoleErrors).toEqual([])
  }, 180_000)
})
