/**
 * What the Studio can say about unsubscribed addresses: how many, and why there is nothing to
 * list (server/newsletter/subscribers.ts keeps only a salted hash of each, docs/newsletter.md).
 */
export function UnsubscribedNote() {
  return (
    <div style={{padding: '1.25rem', maxWidth: '32rem', lineHeight: 1.5}}>
      <p style={{margin: 0}}>
        Unsubscribing deletes the address. Only a salted hash of it is kept, so that no mailing
        reaches it again by mistake; there is no address to show here. The count is in this
        list&rsquo;s title.
      </p>
    </div>
  )
}
