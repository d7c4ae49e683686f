import {describe, expect, it} from 'vitest'
import {forwardedAddress, resolveClient, truncateAddress} from './clientAddress.ts'

const from = (peer: string, forwardedFor?: string, forwardedProto?: string, encrypted = false) => ({
  peer,
  forwardedFor,
  forwardedProto,
  encrypted,
})

describe('client address', () => {
  it('keeps no full address: IPv4 /24, IPv6 /48, loopback whole', () => {
    expect(truncateAddress('203.0.113.77')).toBe('203.0.113.0/24')
    expect(truncateAddress('::ffff:203.0.113.77')).toBe('203.0.113.0/24')
    expect(truncateAddress('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48')
    expect(truncateAddress('2001:db8::1')).toBe('2001:db8:0::/48')
    expect(truncateAddress('127.0.0.2')).toBe('127.0.0.2')
    expect(truncateAddress('::1')).toBe('::1')
    expect(truncateAddress('not an address')).toBe('unknown')
  })

  it('ignores X-Forwarded-For unless TRUST_PROXY=loopback and the peer is on loopback', () => {
    expect(resolveClient(from('127.0.0.1', '198.51.100.9'), 'none').key).toBe('127.0.0.1')
    expect(resolveClient(from('203.0.113.5', '198.51.100.9'), 'loopback').key).toBe(
      '203.0.113.0/24',
    )
    expect(resolveClient(from('127.0.0.1', '1.2.3.4, 198.51.100.9'), 'loopback').key).toBe(
      '198.51.100.0/24',
    )
    expect(resolveClient(from('127.0.0.1', 'garbage'), 'loopback').key).toBe('127.0.0.1')
  })

  it('passes a client on as an address that resolves back to the same client (review 3, M1)', () => {
    for (const visitor of ['203.0.113.77', '2001:db8:77:12::1', '2001:db8::1', '127.0.0.9']) {
      const client = resolveClient(from(visitor), 'none')
      const passed = forwardedAddress(client)
      expect(passed).toBeDefined()
      expect(resolveClient(from('127.0.0.1', passed), 'loopback')).toEqual(client)
    }
    expect(forwardedAddress({key: '203.0.113.0/24', secure: false})).toBe('203.0.113.0')
    expect(forwardedAddress({key: 'unknown', secure: false})).toBeUndefined()
    // The key form itself, as an older site process sent it, names the same network.
    expect(resolveClient(from('127.0.0.1', '2001:db8:77::/48'), 'loopback').key).toBe(
      '2001:db8:77::/48',
    )
    expect(resolveClient(from('127.0.0.1', '203.0.113.0/8'), 'loopback').key).toBe('127.0.0.1')
  })

  it('believes X-Forwarded-Proto only from a trusted proxy', () => {
    expect(resolveClient(from('127.0.0.1', undefined, 'https'), 'none').secure).toBe(false)
    expect(resolveClient(from('127.0.0.1', undefined, 'https'), 'loopback').secure).toBe(true)
    expect(resolveClient(from('203.0.113.5', undefined, 'https'), 'loopback').secure).toBe(false)
    expect(resolveClient(from('203.0.113.5', undefined, undefined, true), 'none').secure).toBe(true)
  })
})
