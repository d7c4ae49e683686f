import type {Lake} from '../../lake/index.ts'
import {isContactMessage, type ContactMessage} from '../inbox.ts'

/** Every stored contact message, oldest first, read with the owner's rights. */
export function inboxMessages(lake: Lake): Promise<ContactMessage[]> {
  return lake.query<ContactMessage[]>(
    '*[_type == "contactMessage"] | order(receivedAt asc, _createdAt asc)',
    {},
    {authenticated: true},
  )
}

/**
 * Resolves with the message once `predicate` holds for it, re-checking after every commit
 * (no polling, no sleeps); rejects after `timeoutMs` with the last state seen.
 */
export function waitForMessage(
  lake: Lake,
  id: string,
  predicate: (message: ContactMessage) => boolean,
  timeoutMs = 20_000,
): Promise<ContactMessage> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const doc = lake.getDocument(id)
      if (isContactMessage(doc) && predicate(doc)) {
        done()
        resolve(doc)
        return true
      }
      return false
    }
    const unsubscribe = lake.onCommit(() => check())
    const timer = setTimeout(() => {
      done()
      reject(
        new Error(
          `${id} did not reach the expected state; last seen ${JSON.stringify(lake.getDocument(id))}`,
        ),
      )
    }, timeoutMs)
    function done() {
      unsubscribe()
      clearTimeout(timer)
    }
    check()
  })
}
