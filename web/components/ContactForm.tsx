import {useEffect, useRef, useState, useSyncExternalStore, type FormEvent} from 'react'
import {useLocation} from 'react-router-dom'
import styled from 'styled-components'
import {contactAttribute} from '../boot/boot.ts'
import {thankYou, toastMs} from '../contactToast.ts'
import {useFlash} from './flashContext.ts'
import {EmailField, Field, formFieldStyles} from './FormFields.tsx'
import {theme} from './theme.ts'
import {Toast} from './Toast.tsx'
import {useSiteConfig} from './useSiteConfig.ts'

const Form = styled.form`
  display: grid;
  gap: 1rem;
  max-width: 34rem;
  ${formFieldStyles}
  input,
  textarea {
    padding: 0.65rem 0.75rem;
    background: ${theme.card};
  }
  button {
    justify-self: start;
    padding: 0.7rem 1.8rem;
  }
`

const Failure = styled.p`
  margin: 0;
  color: ${theme.error};
`

/** The page's address changes only by navigation, which re-renders the form (useLocation). */
const noSubscription = () => () => {}

/**
 * The contact form: a real form posting natively to the relay (so it works without JavaScript,
 * `_next` bringing the visitor back), and with JavaScript sent by fetch without leaving the page,
 * then the thank-you toast for exactly 4000 ms and empty fields (requirements §2, §4).
 */
export function ContactForm() {
  const {contactAction, siteUrl} = useSiteConfig()
  const {pathname} = useLocation()
  // The address the browser really shows (it may differ from SITE_URL, e.g. a preview host),
  // read during render; the server and hydration use SITE_URL's, so the markup matches.
  const next = useSyncExternalStore(
    noSubscription,
    () => window.location.href,
    () => `${siteUrl}${pathname}`,
  )
  const flash = useFlash()
  // After a native post the server rendered the toast into this page (its CSS hides it at 4000 ms).
  const [toast, setToast] = useState<string | null>(flash === 'contact-sent' ? thankYou : null)
  // Each send shows a new message element, so its 4000 ms start again.
  const [sends, setSends] = useState(0)
  const [failed, setFailed] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)

  useEffect(() => () => clearTimeout(timer.current), [])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const fields = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]))
    setFailed(false)
    try {
      const response = await fetch(contactAction, {
        method: 'POST',
        headers: {'Content-Type': 'application/json', Accept: 'application/json'},
        body: JSON.stringify(fields),
      })
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    } catch (error) {
      console.warn('[contact] sending failed', error)
      setFailed(true)
      return
    }
    form.reset()
    clearTimeout(timer.current)
    setToast(thankYou)
    setSends((n) => n + 1)
    timer.current = setTimeout(() => setToast(null), toastMs)
  }

  return (
    <>
      <Form method="POST" action={contactAction} onSubmit={onSubmit} {...{[contactAttribute]: ''}}>
        <input type="hidden" name="_next" value={next} />
        <Field label="Name" name="name" type="text" autoComplete="name" required />
        <EmailField label="Email" />
        <label>
          Message
          <textarea name="message" rows={4} required />
        </label>
        {failed && (
          <Failure role="alert">
            Sorry, your message could not be sent. Please try again in a moment.
          </Failure>
        )}
        <button type="submit">Send</button>
      </Form>
      <Toast message={toast} messageKey={sends} />
    </>
  )
}
