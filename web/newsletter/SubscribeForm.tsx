import styled from 'styled-components'
import {EmailField, formFieldStyles, Honeypot} from '../components/FormFields.tsx'
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
  ${formFieldStyles}
  label {
    flex: 1 1 14rem;
  }
  input {
    min-height: 44px;
    padding: 0.6rem 0.75rem;
    background: ${theme.paper};
  }
  button {
    padding: 0.6rem 1.5rem;
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
        <EmailField label="Email address" maxLength={254} />
        <Honeypot />
        <button type="submit">Subscribe</button>
      </form>
    </Box>
  )
}
