import { typeName, ValidationError } from './validation-error.js';

// Standard alphabet (RFC 4648 section 4) with padding: what PHP's base64_encode and the service emit.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Encodes bytes as standard, padded base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Decodes standard, padded, canonical base64 (RFC 4648 section 3.5: unused trailing bits must be
 * zero), or returns null. Strict on purpose: there is exactly one accepted spelling of each
 * signature and key, so no two strings mean the same bytes.
 */
export function tryDecodeBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return encodeBase64(bytes) === text ? bytes : null;
}

/** Like tryDecodeBase64 but for configuration: throws a ValidationError naming the field. */
export function decodeBase64(text: unknown, field: string, expectedLength?: number): Uint8Array {
  if (typeof text !== 'string') {
    throw new ValidationError(field, `${field}: expected a base64 string, got ${typeName(text)}`);
  }
  const bytes = tryDecodeBase64(text);
  if (bytes === null) throw new ValidationError(field, `${field}: not canonical padded base64`);
  if (expectedLength !== undefined && bytes.length !== expectedLength) {
    throw new ValidationError(field, `${field}: expected ${expectedLength} bytes, got ${bytes.length}`);
  }
  return bytes;
}
