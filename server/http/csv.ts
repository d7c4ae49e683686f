/**
 * One CSV cell: quoted, quotes doubled, and a leading = + - @ (or tab, CR) defused with an
 * apostrophe, so a spreadsheet never runs a cell as a formula (OWASP's CSV injection advice).
 * Every CSV the owner downloads is made of these (subscribers, reader statistics).
 */
export function csvCell(value: string | number): string {
  const text = String(value)
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

/** A CSV document: a header row and the rows, CRLF-terminated (RFC 4180). */
export function csvDocument(columns: string[], rows: Array<Array<string | number>>): string {
  const lines = [columns.join(','), ...rows.map((row) => row.map(csvCell).join(','))]
  return lines.join('\r\n') + '\r\n'
}
