import {isRouteErrorResponse, useRouteError} from 'react-router-dom'
import {GlobalStyle} from './GlobalStyle.tsx'

/** Last-resort error page (a loader threw unexpectedly); details stay in the server log. */
export function RouteError() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  return (
    <>
      <GlobalStyle />
      <title>Something went wrong</title>
      <main style={{padding: '2rem'}}>
        <h1>Something went wrong</h1>
        <p>Error {status}. Please try again in a moment.</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </main>
    </>
  )
}
