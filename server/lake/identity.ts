/** Who a request is, once its token is checked (auth.ts): the owner, a Studio session or a preview. */
export interface Identity {
  userId: string
  /** The Studio session's token hash; undefined for the owner token itself. */
  session?: string
  /** A read-only preview session (previewSessions.ts): reads drafts, writes nothing. */
  preview?: true
}
