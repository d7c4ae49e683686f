import {ContactForm} from '../components/ContactForm.tsx'
import {PageMeta} from '../components/PageMeta.tsx'

/** Contact: 'Say Hello' and the form (requirements §2). */
export function Contact() {
  return (
    <>
      <PageMeta
        title="Contact"
        description="Say hello: tell me about your writing or editing project. I reply within two business days."
        canonicalPath="/contact"
      />
      <h1>Say Hello</h1>
      <ContactForm />
    </>
  )
}
