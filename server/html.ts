/** Escapes text for HTML text and attribute values in the server's few hand-written pages. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}
