import {describe, expect, it} from 'vitest'
import {ScratchArrays} from './scratchArrays.ts'

describe('ScratchArrays', () => {
  it('lends zeroed arrays of the asked length, and the same memory again once given back', () => {
    const first = new ScratchArrays()
    const bytes = first.uint8(1000)
    const scores = first.float64(1000)
    bytes.fill(7)
    scores.fill(1.5)
    first.release()

    const second = new ScratchArrays()
    const again = second.uint8(600)
    const scoresAgain = second.float64(1000)
    expect(again.length).toBe(600)
    expect(again.buffer).toBe(bytes.buffer)
    expect(again.every((byte) => byte === 0)).toBe(true)
    expect(scoresAgain.buffer).toBe(scores.buffer)
    expect(scoresAgain.every((score) => score === 0)).toBe(true)
    // Two loans of one query never share memory.
    const other = second.uint8(600)
    expect(other.buffer).not.toBe(again.buffer)
    second.release()
  })

  it('lends a new array when every kept one is too short or still lent', () => {
    const holder = new ScratchArrays()
    const held = holder.int32(10)
    const asking = new ScratchArrays()
    const longer = asking.int32(5000)
    expect(longer.length).toBe(5000)
    expect(longer.buffer).not.toBe(held.buffer)
    held[0] = 42
    expect(longer[0]).toBe(0)
    holder.release()
    asking.release()
  })
})
