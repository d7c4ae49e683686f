import {ServerStyleSheet} from 'styled-components'

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
