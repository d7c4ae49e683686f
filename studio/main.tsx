import {StrictMode} from 'react'
import {createRoot} from 'react-dom/client'
import {Studio} from 'sanity'
import config from '../sanity.config.ts'

// The Studio's own entry (studio/index.html): nothing on a public page imports this.
const container = document.getElementById('sanity')
if (!container) throw new Error('studio/index.html lacks #sanity')
createRoot(container).render(
  <StrictMode>
    <Studio config={config} />
  </StrictMode>,
)
