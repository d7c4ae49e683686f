import {SMTPServer} from 'smtp-server'

/** One mail as the SMTP server received it. */
export interface ReceivedMail {
  envelopeFrom: string
  envelopeTo: string[]
  /** Header names lower-cased, folded lines joined, encoded words decoded. */
  headers: Map<string, string>
  /** The text body, quoted-printable decoded. */
  text: string
  raw: string
}

function decodeQuotedPrintable(body: string): string {
  const bytes = Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  )
  return bytes.toString('utf8')
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) back to text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    )
}

/** Splits a single-part RFC 5322 message (what the relay sends) into headers and text. */
export function parseMail(raw: string, envelopeFrom: string, envelopeTo: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const headers = new Map<string, string>()
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0)
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        decodeWords(line.slice(colon + 1).trim()),
      )
  }
  const body = raw.slice(split + 4)
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body
  return {envelopeFrom, envelopeTo, headers, text: text.replace(/\r\n/g, '\n'), raw}
}

/**
 * A real SMTP server on a loopback port for tests (the `smtp-server` package): any or no
 * login, no TLS, and every accepted mail collected in order.
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = []
  private readonly server: SMTPServer
  private waiters: Array<() => void> = []
  port = 0
  /**
   * Runs after a mail is received and before the server answers 250 (fault injection): the
   * mail is already in `mails`, as a real server has taken it once DATA is complete.
   */
  beforeAccept: ((mail: ReceivedMail) => Promise<void>) | undefined
  /**
   * Runs at each `RCPT TO`, before the server answers it (fault injection): a client that dies
   * here has handed nothing over.
   */
  beforeRecipient: ((address: string) => Promise<void>) | undefined

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => callback(null, {user: auth.username}),
      onRcptTo: (address, _session, callback) => {
        void (this.beforeRecipient?.(address.address) ?? Promise.resolve()).then(() => callback())
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
          const to = session.envelope.rcptTo.map((r) => r.address)
          const mail = parseMail(Buffer.concat(chunks).toString('utf8'), from, to)
          this.mails.push(mail)
          for (const wake of this.waiters.splice(0)) wake()
          void (this.beforeAccept?.(mail) ?? Promise.resolve()).then(() => callback())
        })
      },
    })
    // A client that vanishes mid-session (the crash test kills it) is not the sink's failure.
    this.server.on('error', (error) => console.warn(`[smtp-sink] ${error.message}`))
  }

  /** Listens on 127.0.0.1 (`port` 0 picks a free one; pass the old port to come back). */
  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.server.once('error', reject)
      this.server.listen(port, '127.0.0.1', () => resolve())
    })
    const address = this.server.server.address()
    if (address === null || typeof address === 'string') throw new Error('SMTP sink: no TCP port')
    this.port = address.port
    return this
  }

  /** Resolves once at least `count` mails have arrived. */
  async waitFor(count: number): Promise<ReceivedMail[]> {
    while (this.mails.length < count)
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    return this.mails
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
