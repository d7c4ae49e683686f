import {describe, expect, it} from 'vitest'
import {isEmail} from '../util/email.ts'
import {validateSubmission} from './validate.ts'

const valid = {name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you edit my novel?'}

function messageOf(fields: Record<string, unknown>): string | undefined {
  const result = validateSubmission(fields)
  return result.ok ? undefined : result.message
}

describe('validateSubmission', () => {
  it('accepts the spec’s three fields and FormSubmit’s options, trimmed', () => {
    const result = validateSubmission({
      name: '  Ada Lovelace ',
      email: ' ada@example.com',
      message: '\nCould you edit my novel?\n',
      _next: 'http://localhost:3000/contact',
      _subject: '  New   enquiry ',
      _replyto: 'agent@example.com',
      _template: 'table',
      _captcha: 'false',
    })
    expect(result).toEqual({
      ok: true,
      submission: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Could you edit my novel?',
        next: 'http://localhost:3000/contact',
        subject: 'New enquiry',
        replyTo: 'agent@example.com',
        spam: false,
      },
    })
  })

  it('asks for each missing or blank required field by name', () => {
    expect(messageOf({...valid, name: undefined})).toBe('Please enter your name.')
    expect(messageOf({...valid, name: '   '})).toBe('Please enter your name.')
    expect(messageOf({...valid, email: ''})).toBe('Please enter your email address.')
    expect(messageOf({...valid, message: '\n\t'})).toBe('Please enter a message.')
  })

  it('refuses malformed addresses the way the browser’s email check does', () => {
    for (const email of [
      'ada',
      'ada@',
      '@example.com',
      'ada@exa mple.com',
      'ada@example.com\r\nBcc: x@y.z',
    ]) {
      expect(messageOf({...valid, email})).toBe(
        'Please enter a valid email address, like name@example.com.',
      )
    }
    expect(isEmail('ada@localhost')).toBe(true)
    expect(isEmail(`${'a'.repeat(310)}@example.com`)).toBe(false)
    expect(messageOf({...valid, _replyto: 'not an address'})).toBe(
      'The reply-to address is not a valid email address.',
    )
  })

  it('bounds the lengths: name 200, email 320, message 10 000 characters', () => {
    expect(messageOf({...valid, name: 'n'.repeat(200)})).toBeUndefined()
    expect(messageOf({...valid, name: 'n'.repeat(201)})).toBe(
      'Please shorten your name to 200 characters or fewer.',
    )
    expect(messageOf({...valid, message: 'm'.repeat(10_000)})).toBeUndefined()
    expect(messageOf({...valid, message: 'm'.repeat(10_001)})).toBe(
      'Please shorten your message to 10,000 characters or fewer.',
    )
    expect(messageOf({...valid, email: `${'e'.repeat(309)}@example.com`})).toMatch(
      /valid email address/,
    )
    expect(messageOf({...valid, _subject: 's'.repeat(201)})).toBe(
      'Please shorten the subject to 200 characters or fewer.',
    )
  })

  it('keeps a name on one line: its line breaks cannot forge lines of the mail', () => {
    const result = validateSubmission({
      ...valid,
      name: 'Zoë\r\nBcc: victim@example.com\u2028X-Injected: 1\u0000',
    })
    expect(result).toMatchObject({
      ok: true,
      submission: {name: 'Zoë Bcc: victim@example.com X-Injected: 1'},
    })
  })

  it('refuses values that are not text', () => {
    expect(messageOf({...valid, name: 42})).toBe('The field “name” must be text.')
    expect(messageOf({...valid, message: ['a', 'b']})).toBe('The field “message” must be text.')
    expect(messageOf({...valid, _next: {url: '/'}})).toBe('The field “_next” must be text.')
  })

  it('marks a filled honeypot as spam and drops an over-long page address', () => {
    const result = validateSubmission({
      ...valid,
      _honey: 'http://buy.example',
      _next: `/contact?${'x'.repeat(3000)}`,
    })
    expect(result.ok && result.submission).toMatchObject({spam: true, next: undefined})
    expect(validateSubmission({...valid, _honey: ''})).toMatchObject({
      ok: true,
      submission: {spam: false},
    })
  })
})
