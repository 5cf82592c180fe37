/**
 * The userscript's frame key: what lets pagehand in a page and pagehand in its frames (from any
 * origin) recognise each other as the same installation without ever sending the token.
 *
 * The token stays in this module's closure (inside the userscript's own scope: no global, no
 * DOM, no storage). It enters Web Crypto once, on first use, as a non-extractable HKDF key;
 * everything sent is derived from that key (sealed-crypto.ts). The Web Crypto functions are
 * taken at document start, before any page script ran, so a page that replaces them later does
 * not get the token. Without Web Crypto (a page that is not a secure context) there is no key,
 * and frames from other origins stay opaque.
 */

/** Bytes Web Crypto takes. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** The Web Crypto calls the bridge makes, as they were at document start. */
export interface FrameCrypto {
  /** The installation's key material (HKDF, non-extractable); imported on first call. */
  base(): Promise<CryptoKey>;
  deriveKey: SubtleCrypto['deriveKey'];
  sign: SubtleCrypto['sign'];
  verify: SubtleCrypto['verify'];
  encrypt: SubtleCrypto['encrypt'];
  decrypt: SubtleCrypto['decrypt'];
  random(bytes: number): Bytes;
  encode(text: string): Bytes;
  decode(bytes: ArrayBuffer): string;
}

let held: FrameCrypto | undefined;

/**
 * The bridge's crypto for one installation (token and proxy), with the Web Crypto functions as
 * they are now; undefined without a token or Web Crypto.
 */
export function createFrameCrypto(token: string | undefined, proxy: string): FrameCrypto | undefined {
  const c = typeof crypto === 'object' ? crypto : undefined;
  const subtle = c?.subtle;
  if (!token || !c || !subtle || typeof TextEncoder !== 'function') return undefined;
  const importKey = subtle.importKey.bind(subtle);
  const getRandomValues = c.getRandomValues.bind(c);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const encode = encoder.encode.bind(encoder) as (text: string) => Bytes;
  const decode = decoder.decode.bind(decoder);
  // Another proxy's pagehand with the same token is another installation.
  const material = `pagehand\n${proxy.replace(/\/+$/, '')}\n${token}`;
  let base: Promise<CryptoKey> | undefined;
  return {
    base: () => (base ??= importKey('raw', encode(material), 'HKDF', false, ['deriveKey'])),
    deriveKey: subtle.deriveKey.bind(subtle),
    sign: subtle.sign.bind(subtle),
    verify: subtle.verify.bind(subtle),
    encrypt: subtle.encrypt.bind(subtle),
    decrypt: subtle.decrypt.bind(subtle),
    random: (n) => getRandomValues(new Uint8Array(n)),
    encode,
    decode: (b) => decode(b),
  };
}

/**
 * Holds the userscript's token and proxy for the frame bridge (once, at document start). Only
 * client/userscript/index.ts calls this: an embed's pages use the site's protocol (`init({ frames })`).
 */
export function holdFrameSecret(token: string | undefined, proxy: string): void {
  held ??= createFrameCrypto(token, proxy);
}

/** The bridge's crypto when the userscript holds a key (undefined elsewhere: embed, bookmarklet, runner). */
export const frameCrypto = (): FrameCrypto | undefined => held;
