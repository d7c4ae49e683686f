import type {ExprNode} from 'groq-js'

/**
 * One string object per distinct subtree: a Map compares a key it holds by identity first, so
 * per-document lookups by a path's JSON do not compare it character by character. Bounded.
 */
const internedKeys = new Map<string, string>()

/** The JSON of `node`, as the same string object each time. */
export function internedKey(node: ExprNode): string {
  const key = JSON.stringify(node)
  const known = internedKeys.get(key)
  if (known !== undefined) return known
  if (internedKeys.size > 256) internedKeys.clear()
  internedKeys.set(key, key)
  return key
}

/**
 * `{"_ref": <mark>n<NUL> + _id}->`: groq-js hands this dereference, with `@`'s id, to the
 * `dereference` option, which answers lookup `n` of the rewrite that `mark` names. No document id
 * holds a NUL, so such a `_ref` is never a document's.
 */
export function idLookup(mark: string, n: number): unknown {
  return {
    type: 'Deref',
    base: {
      type: 'Object',
      attributes: [
        {
          type: 'ObjectAttributeValue',
          name: '_ref',
          value: {
            type: 'OpCall',
            op: '+',
            left: {type: 'Value', value: `${mark}${n}\u0000`},
            right: {type: 'AccessAttribute', name: '_id'},
          },
        },
      ],
    },
  }
}
