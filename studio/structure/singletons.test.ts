import type {DocumentActionComponent} from 'sanity'
import {describe, expect, it} from 'vitest'
import {singletonAwareActions} from './singletons.ts'

/** Stand-ins for the Studio's default actions, named as the Studio names them. */
const named = (action: DocumentActionComponent['action']): DocumentActionComponent =>
  Object.assign(() => null, {action})

const defaults = [
  'publish',
  'unpublish',
  'discardChanges',
  'duplicate',
  'delete',
  'restore',
] as const

describe("a singleton's document actions", () => {
  const actions = defaults.map((name) => named(name))

  it('are publish and discard changes only: no duplicate, no delete', () => {
    for (const type of ['siteSettings', 'homePage', 'servicesPage'])
      expect(singletonAwareActions(actions, type).map((a) => a.action)).toEqual([
        'publish',
        'discardChanges',
      ])
  })

  it('leave every other type its actions', () => {
    expect(singletonAwareActions(actions, 'post')).toEqual(actions)
  })
})
