import {data} from 'react-router-dom'

/** Any unknown address: answered with HTTP 404 (the page itself renders in the site layout). */
export function notFoundLoader() {
  return data(null, {status: 404})
}
