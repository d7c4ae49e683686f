import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {generate} from 'selfsigned'

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
  writeFileSync(certFile, pems.cert)
  writeFileSync(keyFile, pems.private, {mode: 0o600})
  chmodSync(keyFile, 0o600)
  return {cert: pems.cert, key: pems.private, certFile}
}
