import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ContactMessage} from './inbox.ts'
import {mailSettings, smtpDeliver} from './mailer.ts'
import {SmtpSink} from '../../test/support/smtpSink.ts'

const site = 'https://writer.example'

describe('mailSettings', () => {
  it('is off unless both SMTP_URL and CONTACT_TO are set', () => {
    expect(mailSettings(undefined, 'owner@example.com', site)).toBeUndefined()
    expect(mailSettings('smtp://mail.example:587', undefined, site)).toBeUndefined()
  })

  it('sends from the SMTP login when it is an address, else no-reply at the site’s host', () => {
    expect(
      mailSettings(
        'smtp://me%40writer.example:secret@mail.example:587',
        'a@x.example, b@x.example',
        site,
      ),
    ).toEqual({
      smtpUrl: 'smtp://me%40writer.example:secret@mail.example:587',
      to: ['a@x.example', 'b@x.example'],
      from: 'Scriptorium <me@writer.example>',
    })
    expect(mailSettings('smtps://apikey:secret@mail.example', 'a@x.example', site)?.from).toBe(
      'Scriptorium <no-reply@writer.example>',
    )
  })

  it('fails at start with the variable’s name, without echoing the password', () => {
    expect(() => mailSettings('mail.example:587', 'a@x.example', site)).toThrow(
      /SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    )
    expect(() => mailSettings('not a url :secret@', 'a@x.example', site)).toThrow(
      /^SMTP_URL must be a URL like .*:\*\*\*@/,
    )
    expect(() => mailSettings('smtp://mail.example', 'owner at example', site)).toThrow(
      /^CONTACT_TO must be an email address/,
    )
  })
})

describe('smtpDeliver', () => {
  let sink: SmtpSink
  beforeAll(async () => {
    sink = await new SmtpSink().listen()
  })
  afterAll(() => sink.close())

  const message: ContactMessage = {
    _id: 'inbox.0b7c4a52-3f7e-4a51-9d6c-2a8b1f3e9c10',
    _type: 'contactMessage',
    name: 'Zoë Q.\r\nBcc: victim@example.com',
    email: 'zoe@example.com',
    message: 'Line one.\nLine two, with ünïcode and a long line '.padEnd(200, '.'),
    page: 'https://writer.example/contact',
    receivedAt: '2026-11-21T10:00:00.000Z',
    status: 'pending',
    attempts: 0,
  }

  it('mails the owner with Reply-To the visitor, the default subject and every detail', async () => {
    const deliver = smtpDeliver(
      mailSettings(`smtp://relay:secret@127.0.0.1:${sink.port}`, 'owner@writer.example', site)!,
    )
    await deliver(message, new AbortController().signal)
    const [mail] = await sink.waitFor(1)
    expect(mail.envelopeFrom).toBe('no-reply@writer.example')
    expect(mail.envelopeTo).toEqual(['owner@writer.example'])
    expect(mail.headers.get('from')).toBe('Scriptorium <no-reply@writer.example>')
    expect(mail.headers.get('to')).toBe('owner@writer.example')
    expect(mail.headers.get('message-id')).toBe(`<${message._id}@scriptorium.contact>`)
    expect(mail.headers.has('bcc')).toBe(false)
    // The line break the visitor typed into their name cannot start a header of its own.
    expect(mail.headers.get('reply-to')).toBe('Zoë Q. Bcc: victim@example.com <zoe@example.com>')
    expect(mail.headers.get('subject')).toBe(
      'New message from Zoë Q. Bcc: victim@example.com via your website',
    )
    expect(mail.text).toBe(
      [
        // ... nor a line of the body (security review 2, finding 7).
        'Name: Zoë Q. Bcc: victim@example.com',
        'Email: zoe@example.com',
        'Page: https://writer.example/contact',
        'Received: 2026-11-21T10:00:00.000Z',
        '',
        message.message,
        '',
      ].join('\n'),
    )
  })

  it('uses _subject and _replyto when the form gave them', async () => {
    const deliver = smtpDeliver(
      mailSettings(`smtp://127.0.0.1:${sink.port}`, 'owner@writer.example', site)!,
    )
    await deliver(
      {...message, name: 'Ada', subject: 'Book proposal', replyTo: 'agent@example.com'},
      new AbortController().signal,
    )
    const mail = (await sink.waitFor(2))[1]
    expect(mail.headers.get('subject')).toBe('Book proposal')
    expect(mail.headers.get('reply-to')).toBe('agent@example.com')
  })

  it('rejects when the server is unreachable', async () => {
    const closed = await new SmtpSink().listen()
    const port = closed.port
    await closed.close()
    const deliver = smtpDeliver(
      mailSettings(`smtp://127.0.0.1:${port}`, 'owner@writer.example', site)!,
    )
    await expect(deliver(message, new AbortController().signal)).rejects.toThrow(/ECONNREFUSED/)
  })
})
