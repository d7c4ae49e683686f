/**
 * Typed arrays that one query borrows while it is evaluated and gives back once its answer is
 * made (groq.ts `evaluateJson`), for the next query of the same worker to reuse.
 *
 * A typed array's memory lies outside V8's heap, and V8 counts it as external memory, which it
 * collects by a full collection of the heap once enough has grown. A search at 10k posts made
 * ~220 KB of them (a byte per post for each text match, the filter's positions, the scores): every
 * ~32 MB (~150 searches) a query worker ran a full collection, 10–20 ms on the request it fell on.
 *
 * Only arrays that die with the query come from here: what a view keeps (its atoms' bits, its
 * ranks, its postings) is allocated as usual. Bounded: a few arrays of each kind are kept.
 */
type Pool<T> = T[]

const maxKeptPerKind = 16
/** Larger arrays (a view of over a million documents) are not kept. */
const maxKeptLength = 1 << 20

const free = {
  uint8: [] as Pool<Uint8Array>,
  int32: [] as Pool<Int32Array>,
  float64: [] as Pool<Float64Array>,
}

/** The smallest kept array of at least `length` elements, taken out of `pool`. */
function takeFrom<T extends {length: number}>(pool: Pool<T>, length: number): T | undefined {
  let best = -1
  for (let i = 0; i < pool.length; i++) {
    const size = (pool[i] as T).length
    if (size >= length && (best < 0 || size < (pool[best] as T).length)) best = i
  }
  if (best < 0) return undefined
  const [taken] = pool.splice(best, 1)
  return taken
}

function giveBack<T extends {length: number}>(pool: Pool<T>, array: T): void {
  if (pool.length < maxKeptPerKind && array.length <= maxKeptLength) pool.push(array)
}

/** One query's borrowings; `release()` when nothing reads them any more. */
export class ScratchArrays {
  private readonly uint8s: Uint8Array[] = []
  private readonly int32s: Int32Array[] = []
  private readonly float64s: Float64Array[] = []

  /** `length` zeros. */
  uint8(length: number): Uint8Array {
    const whole = takeFrom(free.uint8, length) ?? new Uint8Array(length)
    this.uint8s.push(whole)
    return whole.fill(0, 0, length).subarray(0, length)
  }

  /** `length` zeros. */
  int32(length: number): Int32Array {
    const whole = takeFrom(free.int32, length) ?? new Int32Array(length)
    this.int32s.push(whole)
    return whole.fill(0, 0, length).subarray(0, length)
  }

  /** `length` zeros. */
  float64(length: number): Float64Array {
    const whole = takeFrom(free.float64, length) ?? new Float64Array(length)
    this.float64s.push(whole)
    return whole.fill(0, 0, length).subarray(0, length)
  }

  /** Gives every borrowed array back: the query must hold none of them any more. */
  release(): void {
    for (const array of this.uint8s.splice(0)) giveBack(free.uint8, array)
    for (const array of this.int32s.splice(0)) giveBack(free.int32, array)
    for (const array of this.float64s.splice(0)) giveBack(free.float64, array)
  }
}
