import styled from 'styled-components'

/** The page frame the stains are positioned in; it clips them so they never cause scrolling. */
export const Frame = styled.div`
  position: relative;
  display: flex;
  flex-direction: column;
  min-height: 100vh;
  overflow: hidden;
`

/** The readable content column, above the stains. */
export const Main = styled.main`
  position: relative;
  z-index: 1;
  flex: 1;
  width: 100%;
  max-width: 60rem;
  margin: 0 auto;
  padding: 1.5rem 1.25rem 3rem;
`
