import { replaceSecrets, SecretMatcher, secretForms } from '../../src/executor/presets/secret-forms';
import { urlForms } from '../support/leaks';

/** Characters of every kind a URL API treats differently ('.' left out: a `.` or `..` path segment is resolved away). */
const POOL = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) => c !== '.'),
  'é',
  '😀',
  '\t',
  '\n',
  '\u0001',
  '\u007f',
  '\uD800',
  'ab',
  'Z9',
];

/** Deterministic strings of 4–16 pieces of {@link POOL}. */
function samples(count: number): string[] {
  let seed = 12_345;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  return Array.from({ length: count }, () => Array.from({ length: 4 + next(13) }, () => POOL[next(POOL.length)]).join(''));
}

const lowerEscapes = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

describe('secretForms: every URL form JavaScript makes of a secret', () => {
  it('holds what encodeURIComponent, encodeURI, URLSearchParams and URL (path, query, fragment, password; special or not) make of 400 strings', () => {
    for (const secret of samples(400)) {
      const forms = new Set(secretForms(secret));
      const missing = urlForms(secret).filter((form) => !forms.has(form));
      expect({ secret, missing }).toEqual({ secret, missing: [] });
    }
  });

  it('a matcher finds each form, with escapes in either case, inside other text', () => {
    for (const secret of samples(60)) {
      const matcher = new SecretMatcher(secret);
      for (const form of secretForms(secret)) {
        for (const variant of [form, lowerEscapes(form)]) expect({ secret, variant, out: replaceSecrets(`<${variant}>`, [matcher], '#') }).toEqual({ secret, variant, out: '<#>' });
      }
    }
  });

  it('overlapping and adjacent occurrences of two secrets become one replacement, leaving no piece of either', () => {
    const matchers = [new SecretMatcher('abcdef12'), new SecretMatcher('ef12ghij'), new SecretMatcher('zz-top-secret')];
    expect(replaceSecrets('x abcdef12ghij y zz-top-secretzz-top-secret z', matchers, '[R]')).toBe('x [R] y [R] z');
    expect(replaceSecrets('aaaa-aaaa-aaaa-aaaa-aaaa', [new SecretMatcher('aaaa-aaaa')], '[R]')).toBe('[R]');
  });

  it('text without a secret comes back as the same string', () => {
    const text = 'no secret here: https://api.example/v1?key=public';
    expect(replaceSecrets(text, [new SecretMatcher('correct horse battery staple'), new SecretMatcher('!@#$')], '[R]')).toBe(text);
  });
});
