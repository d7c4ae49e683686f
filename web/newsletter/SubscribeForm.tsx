import styled from 'styled-components'
import {theme} from '../components/theme.ts'
import {useSiteConfig} from '../components/useSiteConfig.ts'

const Box = styled.section`
  position: relative;
  z-index: 1;
  padding: 1.25rem;
  border: 1px solid ${theme.line};
  border-radius: 10px;
  background: ${theme.card};
  h2 {
    margin: 0 0 0.25rem;
    font-size: 1.35rem;
  }
  p {
    margin: 0 0 0.75rem;
    color: ${theme.muted};
  }
  form {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.75rem;
  }
  label {
    display: grid;
    flex: 1 1 14rem;
    gap: 0.3rem;
    font-weight: 600;
  }
  input {
    min-height: 44px;
    padding: 0.6rem 0.75rem;
    border: 1px solid ${theme.field};
    border-radius: 6px;
    background: ${theme.paper};
    color: ${theme.ink};
    font: inherit;
    font-weight: 400;
  }
  button {
    min-height: 44px;
    padding: 0.6rem 1.5rem;
    border: 0;
    border-radius: 999px;
    background: ${theme.accent};
    color: ${theme.onAccent};
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }
  button:hover {
    background: ${theme.accentDark};
  }
`

/**
 * The newsletter's subscribe form (server/newsletter/): an address, posted natively (no script
 * needed; the server answers with a page), with a honeypot field people never see. Shown only
 * when the server takes subscriptions (SMTP configured).
 */
export function SubscribeForm() {
  const {subscribeAction} = useSiteConfig()
  if (!subscribeAction) return null
  return (
    <Box id="subscribe" aria-labelledby="subscribe-title">
      <h2 id="subscribe-title">Get new posts by email</h2>
      <p>One mail per new post, nothing else. Unsubscribe with one click from any mail.</p>
      <form method="POST" action={subscribeAction}>
        <label>
          Email address
          <input name="email" type="email" autoComplete="email" required maxLength={254} />
        </label>
        {/* A honeypot for bots: hidden from people and assistive technology alike. */}
        <div hidden>
          <label>
            Leave this empty
            <input name="_honey" type="text" tabIndex={-1} autoComplete="off" />
          </label>
        </div>
        <button type="submit">Subscribe</button>
      </form>
    </Box>
  )
}
