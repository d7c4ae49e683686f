import {deflateSync} from 'node:zlib'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {goInStudio, logIn, startStudio, type StudioUnderTest} from './studio-driver.ts'
import {LakeView} from './studio-lake.ts'
import {handMadePng} from '../test/support/handMadePng.ts'

// Issue 35 §4: a photo the lake refuses (here one over its 200-megapixel limit) must tell the
// owner why in the Studio, not only in the browser console.
let running: StudioUnderTest
let lake: LakeView
const postId = 'post-no-cover-yet'

/** A PNG whose header declares 16,400 × 12,300 pixels (201.7 MP): refused from its header. */
function tooManyPixels(): Buffer {
  return handMadePng(16_400, 12_300, 0, deflateSync(Buffer.from([0])))
}

beforeAll(async () => {
  running = await startStudio({SEED: '0'})
  lake = new LakeView(running.server.lake)
  await running.server.lake?.mutate([
    {
      create: {
        _id: postId,
        _type: 'post',
        title: 'No cover yet',
        slug: {_type: 'slug', current: 'no-cover-yet'},
        date: '2024-03-03',
        category: 'General',
        excerpt: 'Its cover is still to come.',
      },
    },
  ])
})
afterAll(async () => {
  await running?.stop()
})

it('a refused upload shows the lake’s reason in a toast', {timeout: 240_000}, async () => {
  const {page, server} = running
  await logIn(page, server.url, server.lake?.token ?? '')
  await goInStudio(page, `/studio/structure/posts;${postId}`)
  await page.getByTestId('field-title').waitFor({timeout: 120_000})
  const coverField = page
    .locator('fieldset')
    .filter({has: page.getByTestId('field-actions-menu-mainImage')})
  await coverField
    .locator('input[type=file]')
    .first()
    .setInputFiles({name: 'phone-200mp.png', mimeType: 'image/png', buffer: tooManyPixels()})
  const reason = page.getByText(
    'The image is 16400 × 12300 pixels; at most 200 megapixels are accepted',
  )
  await reason.first().waitFor({timeout: 60_000})
  await expect(
    page.getByText('phone-200mp.png was not uploaded').first().isVisible(),
  ).resolves.toBe(true)
  // Nothing was stored: no asset, and the post has no cover.
  expect(server.lake?.getDocument(postId)?.mainImage).toBeUndefined()
  expect(lake.doc(`drafts.${postId}`)?.mainImage?.asset).toBeUndefined()
})
