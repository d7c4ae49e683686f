import {isRecord} from '../../util/isRecord.ts'

/**
 * The strings a value offers to `text::query`: every string in it, however deep, but not system
 * fields (keys starting with `_`: ids, references, keys, types), and of a Portable Text block only
 * its spans' text (a block's `style: 'normal'` or a mark's name is not content).
 */
export function* searchableStrings(value: unknown, depth = 0): Generator<string> {
  if (depth > 32) return
  if (typeof value === 'string') {
    yield value
    return
  }
  if (Array.isArray(value)) {
    for (const item of value) yield* searchableStrings(item, depth + 1)
    return
  }
  if (!isRecord(value)) return
  if (value._type === 'block' && Array.isArray(value.children)) {
    // One block is one text: a phrase may run across spans (bold inside a sentence).
    const text = value.children
      .map((span) => (isRecord(span) && typeof span.text === 'string' ? span.text : ''))
      .join('')
    yield text
    return
  }
  for (const [key, item] of Object.entries(value)) {
    if (!key.startsWith('_')) yield* searchableStrings(item, depth + 1)
  }
}
