import {describe, expect, it} from 'vitest'
import {svgRefusal} from './svgSafety.ts'

const svg = (inner: string, attributes = '') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"${attributes}>${inner}</svg>`,
  )

describe('svgRefusal (security review 3, L4)', () => {
  it.each([
    ['a script element', svg('<script>alert(1)</script>'), /script/],
    [
      'a script element behind an SVG namespace prefix (review 3, row 26)',
      svg('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>'),
      /s:script/,
    ],
    [
      'an XHTML script element',
      svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'),
      /h:script/,
    ],
    ['a foreignObject', svg('<foreignObject><div>x</div></foreignObject>'), /foreignObject/],
    [
      'a prefixed foreignObject',
      svg('<q:foreignObject xmlns:q="http://www.w3.org/2000/svg"/>'),
      /foreignObject/,
    ],
    ['an event handler', svg('<rect onload="alert(1)" width="1" height="1"/>'), /onload/],
    ['an event handler on the root', svg('', ' onclick="x()"'), /onclick/],
    [
      'a prefixed event handler',
      svg('<rect xmlns:e="http://www.w3.org/2001/xml-events" e:onclick="x()"/>'),
      /e:onclick/,
    ],
    [
      'xlink:href with a character reference for the colon (review 3, row 26)',
      svg('<a xlink:href="javascript&#58;alert(1)"><rect width="1" height="1"/></a>'),
      /xlink:href/,
    ],
    [
      'href with a hex reference and a tab inside the scheme',
      svg('<a href="jav&#x09;ascript&#x3A;alert(1)"><rect width="1" height="1"/></a>'),
      /href/,
    ],
    [
      'href with leading spaces and upper case',
      svg('<a href="  JavaScript:alert(1)"><rect/></a>'),
      /href/,
    ],
    ['an HTML data URL', svg('<a href="data:text/html,&lt;script&gt;x&lt;/script&gt;"/>'), /href/],
    ['an SVG data URL', svg('<image href="data:image/svg+xml,%3Csvg/%3E"/>'), /href/],
    ['a file URL (review 3, row 27)', svg('<image href="file:///etc/passwd"/>'), /href/],
    [
      'an animation that sets href to a script URL',
      svg('<a><set attributeName="xlink:href" to="javascript:alert(1)"/><rect/></a>'),
      /to/,
    ],
    [
      'an animation whose values list holds a script URL',
      svg('<a><animate attributeName="href" values="#a;javascript:alert(1)"/></a>'),
      /values/,
    ],
    [
      'XInclude',
      svg('<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="x.svg"/>'),
      /include/,
    ],
    [
      'an internal DTD subset with an entity',
      Buffer.from(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "javascript:alert(1)">]><svg xmlns="http://www.w3.org/2000/svg"><a href="&x;"/></svg>',
      ),
      /entity/,
    ],
    [
      'an external entity',
      Buffer.from(
        '<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&xxe;</svg>',
      ),
      /entity/,
    ],
    [
      'an XSLT stylesheet instruction',
      Buffer.from(
        '<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="data:text/xsl,x"?><svg xmlns="http://www.w3.org/2000/svg"/>',
      ),
      /processing instruction/,
    ],
    [
      'a declared non-UTF-8 encoding',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-7"?><svg xmlns="http://www.w3.org/2000/svg"/>',
      ),
      /UTF-8/,
    ],
    ['bytes that are not UTF-8', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0x3e]), /UTF-8/],
    ['XML that is not well-formed', Buffer.from('<svg><script>alert(1)</svg>'), /well-formed/],
  ])('refuses %s', (_, bytes, reason) => {
    expect(svgRefusal(bytes)).toMatch(reason)
  })

  it('accepts an ordinary drawing: a public DOCTYPE, fragment and raster data links, http links', () => {
    const drawing = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" opacity="1">' +
        '<!-- by hand --><defs><linearGradient id="g" offset="0"/></defs>' +
        '<use xlink:href="#shape"/><image href="data:image/png;base64,iVBORw0KGgo="/>' +
        '<a href="https://example.com/?a=1&amp;b=2"><rect id="shape" fill="url(#g)" width="10" height="10"/></a>' +
        '<animate attributeName="opacity" values="0;1" dur="1s"/><style>rect{fill:red}</style></svg>',
    )
    expect(svgRefusal(drawing)).toBeUndefined()
  })
})
