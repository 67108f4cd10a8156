// Minimal DER (ASN.1) encoder: just enough to build X.509 certificates (the webhook listener's
// development certificate, the LAN HTTPS mode's local CA) without the openssl binary or a new
// dependency: Node makes keys and signatures but not certificates.

export type Der = Buffer;

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Der {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export const sequence = (...items: Der[]): Der => tlv(0x30, Buffer.concat(items));
export const set = (...items: Der[]): Der => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Buffer): Der => tlv(0x04, content);
export const utf8String = (text: string): Der => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean): Der => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
export const nullValue = (): Der => Buffer.from([0x05, 0x00]);
/** A BIT STRING whose last byte ends with `unusedBits` padding bits (none by default). */
export const bitString = (content: Buffer, unusedBits = 0): Der => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
/** [n] EXPLICIT: a constructed context-specific wrapper. */
export const explicit = (n: number, inner: Der): Der => tlv(0xa0 | n, inner);
/** [n] IMPLICIT on a primitive type. */
export const implicitPrimitive = (n: number, content: Buffer): Der => tlv(0x80 | n, content);

/** An INTEGER from unsigned big-endian bytes (a 0 byte is prepended when the top bit is set). */
export function unsignedInteger(bytes: Buffer): Der {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  const needsPad = (trimmed[0] ?? 0) & 0x80;
  return tlv(0x02, needsPad ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function objectId(dotted: string): Der {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) {
      chunk.unshift((value & 0x7f) | 0x80);
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime (YYMMDDHHMMSSZ); valid for years 1950–2049, which is all a dev certificate needs. */
export function utcTime(date: Date): Der {
  const iso = date.toISOString(); // 2025-01-31T12:34:56.789Z
  const text = `${iso.slice(2, 19).replace(/[-T:]/g, '')}Z`; // YYMMDDHHMMSSZ
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

/** A certificate's validity time: UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
export function validityTime(date: Date): Der {
  if (date.getUTCFullYear() < 2050) return utcTime(date);
  return tlv(0x18, Buffer.from(`${date.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`, 'ascii'));
}
