import {describe, expect, it} from 'vitest'
import {signToken, verifyToken} from './tokens.ts'

const secret = Buffer.alloc(32, 1)
const now = Date.parse('2026-11-26T00:00:00Z')

describe('signed newsletter links', () => {
  it('round-trips the claims of its own purpose until it expires', () => {
    const token = signToken(secret, 'confirm', {sub: 'abc', nonce: 'n1', exp: now + 1000})
    expect(verifyToken(secret, 'confirm', token, now)).toEqual({
      ok: true,
      claims: {sub: 'abc', nonce: 'n1', exp: now + 1000},
    })
    expect(verifyToken(secret, 'confirm', token, now + 1001)).toEqual({
      ok: false,
      reason: 'expired',
    })
  })

  it('refuses another key, another purpose, an edited payload and junk', () => {
    const token = signToken(secret, 'unsubscribe', {sub: 'abc'})
    expect(verifyToken(Buffer.alloc(32, 2), 'unsubscribe', token, now)).toMatchObject({
      reason: 'forged',
    })
    expect(verifyToken(secret, 'confirm', token, now)).toMatchObject({reason: 'forged'})
    const [, signature] = token.split('.')
    const edited = `${Buffer.from('{"sub":"other"}').toString('base64url')}.${signature}`
    expect(verifyToken(secret, 'unsubscribe', edited, now)).toMatchObject({reason: 'forged'})
    for (const junk of [undefined, '', 'x', 'a.b.c', `${'a'.repeat(500)}.b`])
      expect(verifyToken(secret, 'unsubscribe', junk, now)).toMatchObject({ok: false})
  })
})
