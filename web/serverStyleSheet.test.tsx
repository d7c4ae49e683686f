import type {ReactElement} from 'react'
import {renderToString} from 'react-dom/server'
import styled, {createGlobalStyle, css, keyframes, ServerStyleSheet} from 'styled-components'
import {describe, expect, it} from 'vitest'
import {rememberingStylis, serverStyleSheet} from './serverStyleSheet.ts'

const fadeIn = keyframes`from { opacity: 0 } to { opacity: 1 }`
const Global = createGlobalStyle`body { margin: 0; color: #222; }`
const Card = styled.article`
  padding: 1rem;
  animation: ${fadeIn} 0.2s;
  &:hover {
    outline: 2px solid teal;
  }
  @media (min-width: 40em) {
    padding: 2rem;
  }
`
const Tab = styled.a<{$active: boolean}>`
  color: ${({$active}) => ($active ? 'black' : 'gray')};
  ${({$active}) =>
    $active &&
    css`
      border-bottom: 2px solid;
    `}
`

function page(tabs: boolean[]): ReactElement {
  return (
    <>
      <Global />
      <Card>
        {tabs.map((active, i) => (
          <Tab key={i} $active={active}>
            tab
          </Tab>
        ))}
      </Card>
    </>
  )
}

function styles(sheet: ServerStyleSheet, tree: ReactElement): {html: string; tags: string} {
  try {
    const html = renderToString(sheet.collectStyles(tree))
    return {html, tags: sheet.getStyleTags()}
  } finally {
    sheet.seal()
  }
}

describe('serverStyleSheet', () => {
  it('gives the page the same markup and CSS as a plain sheet, compiled or reused', () => {
    for (const tabs of [[true, false], [false], [true, true, false], [false]]) {
      const plain = styles(new ServerStyleSheet(), page(tabs))
      const first = styles(serverStyleSheet(), page(tabs))
      const again = styles(serverStyleSheet(), page(tabs))
      expect(first).toEqual(plain)
      expect(again).toEqual(plain)
    }
  })

  it('puts in a page only the styles it uses', () => {
    styles(serverStyleSheet(), page([true, false]))
    const onlyInactive = styles(serverStyleSheet(), page([false])).tags
    expect(onlyInactive).toContain('color:gray')
    expect(onlyInactive).not.toContain('color:black')
    expect(onlyInactive).not.toContain('border-bottom')
  })

  it('reuses compiled rules instead of compiling them again', () => {
    styles(serverStyleSheet(), page([true]))
    const sheet = serverStyleSheet()
    const compiles: string[] = []
    const insert = sheet.instance.insertRules
    sheet.instance.insertRules = (id, name, rules) => {
      compiles.push(name)
      insert(id, name, rules)
    }
    styles(sheet, page([true]))
    expect(compiles).toEqual([])
  })

  it("compiles a global style's CSS once, not on every render", () => {
    const compiled: string[] = []
    const stylis = Object.assign(
      (css: string, selector = '', prefix = '', componentId = '&') => {
        compiled.push(css)
        return [`${componentId}${selector}${prefix}{${css}}`]
      },
      {hash: 'h'},
    )
    const remembering = rememberingStylis(stylis)
    expect(remembering.hash).toBe('h')
    const first = remembering('body{margin:0}', '', '', 'sc-global-a1')
    first.push('changed by its caller')
    expect(remembering('body{margin:0}', '', '', 'sc-global-a1')).toEqual([
      'sc-global-a1{body{margin:0}}',
    ])
    expect(remembering('body{margin:0}', '', '', 'sc-global-b2')).toEqual([
      'sc-global-b2{body{margin:0}}',
    ])
    expect(compiled).toEqual(['body{margin:0}', 'body{margin:0}'])
  })
})
