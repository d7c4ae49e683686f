import type {InputHTMLAttributes} from 'react'
import {css} from 'styled-components'
import {theme} from './theme.ts'

/**
 * What the site's forms share (the contact form, web/components/ContactForm.tsx, and the
 * subscribe form, web/newsletter/SubscribeForm.tsx): fields whose label wraps the input, the
 * email field, the honeypot, and the look of labels, inputs and the submit button. Each form adds
 * its own layout, sizes and input background (its surface differs) on top.
 */
export const formFieldStyles = css`
  label {
    display: grid;
    gap: 0.3rem;
    font-weight: 600;
  }
  input,
  textarea {
    border: 1px solid ${theme.field};
    border-radius: 6px;
    color: ${theme.ink};
    font: inherit;
    font-weight: 400;
  }
  button {
    min-height: 44px;
    border: 0;
    border-radius: 999px;
    background: ${theme.accent};
    color: ${theme.onAccent};
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }
`

type FieldProps = {label: string} & InputHTMLAttributes<HTMLInputElement>

/** An input inside its label, so the label names it with no id to keep unique. */
export function Field({label, ...input}: FieldProps) {
  return (
    <label>
      {label}
      <input {...input} />
    </label>
  )
}

/** The visitor's address: the browser checks its form and offers the saved one. */
export function EmailField({label, maxLength}: {label: string; maxLength?: number}) {
  return (
    <Field
      label={label}
      name="email"
      type="email"
      autoComplete="email"
      required
      {...(maxLength === undefined ? {} : {maxLength})}
    />
  )
}

/**
 * A field for bots only (`_honey`): hidden from people and assistive technology alike, out of the
 * tab order; the server treats a filled one as spam and answers it like a person
 * (server/contact/validate.ts, server/newsletter/routes.ts).
 */
export function Honeypot() {
  return (
    <div hidden>
      <label>
        Leave this empty
        <input name="_honey" type="text" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  )
}
