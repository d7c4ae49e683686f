import {describe, expect, it} from 'vitest'
import {QueueFullError, TransformQueue} from './transformQueue.ts'
import {VariantCache} from './variantCache.ts'

/** A task that finishes when the test says so. */
function gate() {
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  return {open, task: () => opened.then(() => 'done')}
}

const scopeOf = (error: unknown) => (error instanceof QueueFullError ? error.scope : 'other')

describe('TransformQueue', () => {
  it('runs at most `concurrency`, queues up to `waiting`, refuses the rest at once', async () => {
    const queue = new TransformQueue({concurrency: 1, waiting: 2, perClient: 10})
    const first = gate()
    const running = queue.run('a', first.task)
    const queued = [
      queue.run('b', () => Promise.resolve('b')),
      queue.run('c', () => Promise.resolve('c')),
    ]
    expect(queue.load).toEqual({running: 1, waiting: 2, background: 0})
    await expect(queue.run('d', () => Promise.resolve('d'))).rejects.toSatisfy(
      (error) => scopeOf(error) === 'server',
    )
    first.open()
    expect(await Promise.all([running, ...queued])).toEqual(['done', 'b', 'c'])
    expect(queue.load).toEqual({running: 0, waiting: 0, background: 0})
  })

  it("caps one client's share (429) while others still get in", async () => {
    const queue = new TransformQueue({concurrency: 1, waiting: 10, perClient: 2})
    const first = gate()
    const mine = [queue.run('a', first.task), queue.run('a', () => Promise.resolve('a2'))]
    await expect(queue.run('a', () => Promise.resolve('a3'))).rejects.toSatisfy(
      (error) => scopeOf(error) === 'client',
    )
    const other = queue.run('b', () => Promise.resolve('b'))
    first.open()
    expect(await Promise.all([...mine, other])).toEqual(['done', 'a2', 'b'])
    // The share is released with the tasks, failed ones included.
    await expect(queue.run('a', () => Promise.reject(new Error('bad')))).rejects.toThrow('bad')
    expect(await queue.run('a', () => Promise.resolve('again'))).toBe('again')
  })

  it('serves waiting clients in turn: an honest client is not stuck behind two greedy ones (review 3, M2)', async () => {
    const queue = new TransformQueue({concurrency: 1, waiting: 32, perClient: 16})
    const order: string[] = []
    const first = gate()
    const running = queue.run('greedy-a', () => first.task().then(() => order.push('a0')))
    const tasks = [running]
    for (let i = 1; i <= 15; i++)
      tasks.push(queue.run('greedy-a', () => Promise.resolve(order.push(`a${i}`))))
    for (let i = 1; i <= 16; i++)
      tasks.push(queue.run('greedy-b', () => Promise.resolve(order.push(`b${i}`))))
    expect(queue.load.waiting).toBe(31)
    tasks.push(queue.run('honest', () => Promise.resolve(order.push('honest'))))
    first.open()
    await Promise.all(tasks)
    // After the task running when it came: one task of each client ahead of it, then its own.
    expect(order.slice(0, 4)).toEqual(['a0', 'a1', 'b1', 'honest'])
    // Then the greedy ones alternate; each client's own tasks stay in the order it sent them.
    expect(order.slice(4, 8)).toEqual(['a2', 'b2', 'a3', 'b3'])
    expect(order.filter((name) => name.startsWith('a'))).toEqual(
      Array.from({length: 16}, (_, i) => `a${i}`),
    )
  })

  it('runs background tasks only when no visitor’s task runs or waits', async () => {
    const queue = new TransformQueue({concurrency: 1, waiting: 10, perClient: 10})
    const order: string[] = []
    const first = gate()
    const visitor = queue.run('a', () => first.task().then(() => order.push('visitor 1')))
    const background = [1, 2].map((n) =>
      queue.runInBackground(() => Promise.resolve(order.push(`background ${n}`))),
    )
    const later = queue.run('b', () => Promise.resolve(order.push('visitor 2')))
    expect(queue.load).toEqual({running: 1, waiting: 1, background: 2})
    first.open()
    await Promise.all([visitor, later, ...background])
    // The visitor who came after the background tasks still went before them.
    expect(order).toEqual(['visitor 1', 'visitor 2', 'background 1', 'background 2'])
    expect(queue.load).toEqual({running: 0, waiting: 0, background: 0})
  })
})

describe('VariantCache', () => {
  it('stays within its byte bound however many distinct variants arrive', () => {
    const cache = new VariantCache(1024 * 1024)
    for (let i = 0; i < 10_000; i++)
      cache.set(`file.jpg?w=${i}`, {bytes: Buffer.alloc(1000 + (i % 5000)), type: 'image/jpeg'})
    expect(cache.size).toBeLessThanOrEqual(1024 * 1024)
    expect(cache.count).toBeGreaterThan(0)
    expect(cache.get('file.jpg?w=9999')).toBeDefined()
    expect(cache.get('file.jpg?w=0')).toBeUndefined()
  })
})
