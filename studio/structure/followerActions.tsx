import {useState} from 'react'
import {useClient, type DocumentActionComponent, type DocumentActionProps} from 'sanity'
import {apiVersion} from '../../shared/constants.ts'
import {followerType} from './followers.ts'

/** The server's owner-only block route (server/social/ownerRoutes.ts). */
const blocksPath = '/api/social/blocks'

function actorOf(props: DocumentActionProps): string | undefined {
  const doc = props.published ?? props.draft
  const actor = doc?.actor
  return typeof actor === 'string' ? actor : undefined
}

function hostOf(actor: string | undefined): string | undefined {
  try {
    return actor ? new URL(actor).host : undefined
  } catch {
    return undefined
  }
}

/**
 * A Block action: asks the server to block `target` (which also removes the followers it
 * covers). The Studio's session is the bearer token, as the Readers tool's requests carry it.
 */
function blockAction(
  label: (target: string) => string,
  targetOf: (props: DocumentActionProps) => string | undefined,
): DocumentActionComponent {
  const Action: DocumentActionComponent = (props) => {
    const {apiHost, token} = useClient({apiVersion}).config()
    const [busy, setBusy] = useState(false)
    const [error, setError] = useState<string>()
    const target = targetOf(props)
    if (!target) return null
    return {
      label: busy ? 'Blocking…' : label(target),
      tone: 'critical',
      disabled: busy,
      title: error,
      onHandle: () => {
        setBusy(true)
        void fetch(`${apiHost}${blocksPath}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? {authorization: `Bearer ${token}`} : {}),
          },
          body: JSON.stringify({target}),
        })
          .then((res) => {
            if (!res.ok) throw new Error(`The block failed (${res.status}).`)
            props.onComplete()
          })
          .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
          .finally(() => setBusy(false))
      },
    }
  }
  return Action
}

const BlockAccount = blockAction(() => 'Block this account', actorOf)
const BlockInstance = blockAction(
  (host) => `Block all of ${host}`,
  (props) => hostOf(actorOf(props)),
)

/** For sanity.config.ts `document.actions`: a follower can be deleted (removed) or blocked. */
export function followerActions(
  actions: DocumentActionComponent[],
  schemaType: string,
): DocumentActionComponent[] {
  if (schemaType !== followerType) return actions
  return [...actions.filter(({action}) => action === 'delete'), BlockAccount, BlockInstance]
}
