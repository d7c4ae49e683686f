import {createHmac} from 'node:crypto'
import {isEmail} from '../util/email.ts'

export type AddressCheck = {ok: true; email: string} | {ok: false; message: string}

/**
 * A subscriber's address as typed: trimmed, one address, no line breaks (a header injection
 * attempt is refused, never cleaned up), and passing the browser's own `type=email` rule.
 */
export function checkAddress(value: unknown): AddressCheck {
  if (typeof value !== 'string' || value.trim() === '')
    return {ok: false, message: 'Please enter your email address.'}
  const email = value.trim()
  if (/[\r\n\0]/.test(value) || !isEmail(email) || email.length > 254)
    return {ok: false, message: 'Please enter a valid email address, like name@example.com.'}
  return {ok: true, email}
}

/**
 * The salted hash an address is known by: the subscriber's id is made from it (one document per
 * address, found without a scan), and it is all that is kept once the address unsubscribes.
 * Case-insensitive: Name@Example.com and name@example.com are one subscriber.
 */
export function addressHash(secret: Buffer, email: string): string {
  return createHmac('sha256', secret)
    .update(`newsletter address\0${email.toLowerCase()}`)
    .digest('hex')
    .slice(0, 40)
}

/** The domain an address is mailed at, lower-cased: the key of the hourly confirmation cap. */
export function recipientDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase()
}
