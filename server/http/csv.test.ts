import {describe, expect, it} from 'vitest'
import {csvCell, csvDocument} from './csv.ts'

describe('CSV for the owner downloads', () => {
  it('quotes every cell, doubles quotes and defuses formulas', () => {
    expect(csvCell('a@example.com')).toBe('"a@example.com"')
    expect(csvCell('say "hi"@example.com')).toBe('"say ""hi""@example.com"')
    expect(csvCell('=HYPERLINK("x")@example.com')).toBe(`"'=HYPERLINK(""x"")@example.com"`)
    expect(csvCell('+1@example.com')).toBe(`"'+1@example.com"`)
  })

  it('writes a header row and CRLF rows, numbers as cells', () => {
    expect(
      csvDocument(
        ['path', 'views'],
        [
          ['/', 3],
          ['-1+1', 0],
        ],
      ),
    ).toBe('path,views\r\n"/","3"\r\n"\'-1+1","0"\r\n')
  })
})
