import addressparser from 'nodemailer/lib/addressparser'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  startNewsletterUnderTest,
  type NewsletterUnderTest,
} from '../../test/support/newsletterUnderTest.ts'
import type {ReceivedMail} from '../../test/support/smtpSink.ts'
import {mailTo} from './testing/subscribeFlow.ts'

// Issue #37: mail sent to readers comes from the owner's name in the site settings, read at each
// mail (no restart), header-safe, and from "Scriptorium" while the name is unset.
let running: NewsletterUnderTest

beforeAll(async () => {
  running = await startNewsletterUnderTest()
})
afterAll(() => running?.stop())

async function confirmationTo(email: string) {
  const res = await running.subscribe(email)
  await res.body?.cancel()
  expect(res.status).toBe(303)
  return mailTo(running.sink, email)
}

/** The From header as sent (still encoded) and as a mail client reads it (decoded, parsed). */
function fromOf(mail: ReceivedMail) {
  const header = /^From: (.*)$/m.exec(mail.raw)![1]
  const [parsed] = addressparser(mail.headers.get('from')!, {flatten: true})
  return {header, name: parsed.name, address: parsed.address}
}

const setOwnerName = (ownerName: string | undefined) =>
  running.server.lake.mutate([
    {createOrReplace: {_id: 'siteSettings', _type: 'siteSettings', siteName: 'Ada', ownerName}},
  ])

describe("readers' mails", () => {
  it('come from "Scriptorium" while the settings have no owner name', async () => {
    const mail = await confirmationTo('unset@one.test')
    const from = fromOf(mail)
    expect(from.name).toBe('Scriptorium')
    expect(from.address).toMatch(/^no-reply@/)
  })

  it("come from the owner's name as soon as it is published, with no restart", async () => {
    await setOwnerName('Ada Writer')
    const first = fromOf(await confirmationTo('ada@two.test'))
    expect(first.name).toBe('Ada Writer')
    expect(first.address).toMatch(/^no-reply@/)

    await setOwnerName('Zoë O’Brien')
    expect(fromOf(await confirmationTo('zoe@three.test')).name).toBe('Zoë O’Brien')

    // A comma would make two addresses of one name unless it is quoted.
    await setOwnerName('Writer, Ada')
    const quoted = fromOf(await confirmationTo('comma@three.test'))
    expect(quoted.header).toMatch(/^"Writer, Ada" <no-reply@/)
    expect(addressparser(quoted.header)).toHaveLength(1)
  })

  it('a name with line breaks cannot add a header', async () => {
    await setOwnerName('Eve\r\nBcc: victim@evil.test\r\n')
    const mail = await confirmationTo('eve@four.test')
    expect(fromOf(mail).name).toBe('Eve Bcc: victim@evil.test')
    expect(mail.headers.has('bcc')).toBe(false)
    expect(mail.envelopeTo).toEqual(['eve@four.test'])
  })

  it('a draft of the settings changes nothing', async () => {
    await setOwnerName('Ada Writer')
    await running.server.lake.mutate([
      {createOrReplace: {_id: 'drafts.siteSettings', _type: 'siteSettings', ownerName: 'Draft'}},
    ])
    expect(fromOf(await confirmationTo('draft@five.test')).name).toBe('Ada Writer')
  })
})
