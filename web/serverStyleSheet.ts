import {createElement, useContext} from 'react'
import {renderToString} from 'react-dom/server'
import {ServerStyleSheet, StyleSheetContext, type IStyleSheetContext} from 'styled-components'

type Stylis = IStyleSheetContext['stylis']

/**
 * Compiled CSS rules by component id and class name, shared by every render of this process. A
 * styled component's class name is a hash of its CSS (a global style's, of its id, and only when
 * its CSS is static), so the same pair always compiles to the same rules.
 */
const compiled = new Map<string, string[]>()
/** A site has a few hundred pairs; props-dependent styles could make more: then it starts over. */
const maxCompiled = 2_000

const keyOf = (id: string, name: string) => `${id}\u0000${name}`

/**
 * A ServerStyleSheet whose styles compiled by an earlier render are inserted again instead of
 * recompiled. styled-components asks a sheet `hasNameForId` before it runs stylis on a style, and
 * each render's sheet is new, so each render compiled every style of the page again: a quarter of
 * what a search's page allocated (docs/search.md, "Speed"). Here the sheet answers from the
 * rules compiled before, inserting them as the compile would have, in the same order; the page's
 * CSS is the same (serverStyleSheet.test.tsx).
 */
export function serverStyleSheet(): ServerStyleSheet {
  const sheet = new ServerStyleSheet()
  const collectStyles = sheet.collectStyles.bind(sheet)
  // Its manager takes the stylis of the context around it: this one remembers what it compiled.
  sheet.collectStyles = (children) =>
    createElement(
      StyleSheetContext.Provider,
      {value: rememberingContext()},
      collectStyles(children),
    )
  const instance = sheet.instance
  const hasNameForId = instance.hasNameForId.bind(instance)
  const insertRules = instance.insertRules.bind(instance)
  instance.hasNameForId = (id, name) => {
    if (hasNameForId(id, name)) return true
    const rules = compiled.get(keyOf(id, name))
    if (rules === undefined) return false
    insertRules(id, name, rules)
    return true
  }
  instance.insertRules = (id, name, rules) => {
    if (compiled.size >= maxCompiled) compiled.clear()
    compiled.set(keyOf(id, name), rules)
    insertRules(id, name, rules)
  }
  return sheet
}

/** CSS compiled by stylis, by its arguments: the global styles' few, a component's per props. */
const compiledCss = new Map<string, string[]>()

/**
 * `stylis`, remembering its answers. A global style (createGlobalStyle) compiles its CSS again on
 * every render on the server, even when the sheet already holds its rules (`hasNameForId` above
 * answers for styled components, not for it): ~3% of a search page's main-thread time
 * (docs/search.md, "Speed"). Its CSS is the same text each time, so the compile is looked up.
 */
export function rememberingStylis(stylis: Stylis): Stylis {
  const compile = (css: string, selector = '', prefix = '', componentId = '&') => {
    const key = `${componentId}\u0000${selector}\u0000${prefix}\u0000${css}`
    let rules = compiledCss.get(key)
    if (rules === undefined) {
      if (compiledCss.size >= maxCompiled) compiledCss.clear()
      rules = stylis(css, selector, prefix, componentId)
      compiledCss.set(key, rules)
    }
    // A copy: a caller may keep or change the array it was given.
    return rules.slice()
  }
  return Object.assign(compile, {hash: stylis.hash})
}

let remembering: IStyleSheetContext | undefined

/** styled-components' default context (read once, as a component outside any manager sees it), with `rememberingStylis`. */
function rememberingContext(): IStyleSheetContext {
  if (remembering) return remembering
  let outside: IStyleSheetContext | undefined
  function Read() {
    outside = useContext(StyleSheetContext)
    return null
  }
  renderToString(createElement(Read))
  if (!outside) throw new Error('styled-components gave no style sheet context')
  remembering = {...outside, stylis: rememberingStylis(outside.stylis)}
  return remembering
}
