import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {generate} from 'selfsigned'
import {
  ensurePrivateDir,
  privateFileMode,
  tightenMode,
  writeFileDurablySync,
} from './util/durableFile.ts'

/**
 * The HTTPS certificate: TLS_CERT/TLS_KEY when given, otherwise a self-signed certificate for
 * localhost, *.localhost and 127.0.0.1 generated once into the data dir (key mode 0600).
 */
export async function loadOrCreateCertificate(
  dataDir: string,
  files: {cert?: string; key?: string},
): Promise<{cert: string; key: string; certFile: string}> {
  if (files.cert && files.key) {
    return {
      cert: readFileSync(files.cert, 'utf8'),
      key: readFileSync(files.key, 'utf8'),
      certFile: files.cert,
    }
  }
  const certFile = join(dataDir, 'localhost-cert.pem')
  const keyFile = join(dataDir, 'localhost-key.pem')
  if (existsSync(certFile) && existsSync(keyFile)) {
    for (const file of [keyFile, certFile]) tightenMode(file, privateFileMode)
    return {cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile}
  }
  const pems = await generate([{name: 'commonName', value: 'localhost'}], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
    extensions: [
      {name: 'basicConstraints', cA: false},
      {name: 'keyUsage', digitalSignature: true, keyEncipherment: true},
      {name: 'extKeyUsage', serverAuth: true},
      {
        name: 'subjectAltName',
        altNames: [
          {type: 2, value: 'localhost'},
          {type: 2, value: '*.localhost'},
          {type: 7, ip: '127.0.0.1'},
        ],
      },
    ],
  })
  // Hosted mode opens no lake, so the data dir may not exist yet.
  ensurePrivateDir(dataDir)
  // The key first: a certificate on disk without its key would be regenerated anyway.
  writeFileDurablySync(keyFile, pems.private, privateFileMode)
  // The certificate is public (browsers are shown it), but nothing else needs to read it.
  writeFileDurablySync(certFile, pems.cert, privateFileMode)
  return {cert: pems.cert, key: pems.private, certFile}
}
