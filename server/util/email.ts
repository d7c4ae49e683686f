/** The longest address the forms take: a 64-octet local part, the @ and a 255-octet domain. */
export const maxEmailLength = 320

/**
 * The HTML Standard's "valid email address" (the browser's `type=email` check), so the relay
 * accepts exactly what the form's own check lets through; it also keeps CR/LF out of headers.
 * https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address
 */
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

export function isEmail(value: string): boolean {
  return value.length <= maxEmailLength && emailPattern.test(value)
}
