/** A source of visitor addresses, each in a /24 of its own (limits key on truncated addresses). */
export function visitorAddresses(): () => string {
  let visitor = 0
  return () => {
    visitor++
    return `10.${visitor >> 8}.${visitor & 255}.1`
  }
}
