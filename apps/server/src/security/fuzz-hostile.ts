import fc from 'fast-check';
import type { JsonSchema } from './fuzz-schema.ts';

/**
 * Hostile values and whole hostile bodies, kept as raw JSON text: `1e400`, `-0` and an own
 * `__proto__` key cannot survive a round trip through JSON.stringify, so bodies are written by hand.
 */

const rawJson: unique symbol = Symbol('raw JSON');

/** A piece of JSON text placed as-is inside a body. */
export type RawJson = { readonly [rawJson]: string; readonly label: string };

/** Wraps JSON text (which may be invalid on purpose) so toJsonText writes it unchanged. */
export function raw(text: string, label = text): RawJson {
  return { [rawJson]: text, label };
}

function isRaw(value: unknown): value is RawJson {
  return typeof value === 'object' && value !== null && rawJson in value;
}

/** JSON text of a body that may hold RawJson pieces and own `__proto__` keys. */
export function toJsonText(value: unknown): string {
  if (isRaw(value)) return value[rawJson];
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const kib = 1024;
const deep = 5000;

/** The fixed list: each names the attack it stands for. */
export const hostileValues: readonly RawJson[] = [
  raw(JSON.stringify("'; DROP TABLE users; --"), 'SQL: drop table'),
  raw(JSON.stringify("' OR 1=1 --"), 'SQL: or 1=1'),
  raw(JSON.stringify('1; SELECT pg_sleep(10)'), 'SQL: pg_sleep'),
  raw(JSON.stringify('$1'), 'SQL: placeholder'),
  raw('{"$gt": ""}', 'operator object'),
  raw('{"__proto__": {"isAdmin": true}}', '__proto__ object'),
  raw('{"constructor": {"prototype": {"isAdmin": true}}}', 'constructor.prototype object'),
  raw(`"${'a'.repeat(900 * kib)}"`, '900 KB string'),
  raw(`"${'é'.repeat(300 * kib)}"`, '300 K two-byte characters'),
  raw(`${'['.repeat(deep)}${']'.repeat(deep)}`, `${deep} nested arrays`),
  raw(`${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`, `${deep} nested objects`),
  raw(JSON.stringify('a\u0000b'), 'NUL inside'),
  raw(JSON.stringify('\u0000'), 'NUL alone'),
  raw('"\\ud800"', 'lone high surrogate'),
  raw('"x\\udfffy"', 'lone low surrogate'),
  raw('"\\ud83d\\ud83d"', 'two high surrogates'),
  raw('""', 'empty string'),
  raw('"   "', 'blank string'),
  raw('"NaN"', 'NaN as a string'),
  raw('"Infinity"', 'Infinity as a string'),
  raw('"1e400"', '1e400 as a string'),
  raw('"2026-02-30"', 'impossible date'),
  raw('"2026-13-01"', 'month 13'),
  raw('"0000-00-00"', 'zero date'),
  raw('"99999-01-01T25:61:61Z"', 'nonsense timestamp'),
  raw('1e308', '1e308'),
  raw('-1e308', '-1e308'),
  raw('1e400', '1e400 (Infinity)'),
  raw('-1e400', '-1e400 (-Infinity)'),
  raw('1e-400', '1e-400 (underflow to 0)'),
  raw('-0', '-0'),
  raw('0', '0'),
  raw('-1', '-1'),
  raw('0.001', 'three decimals'),
  raw('1.5', 'a fraction'),
  raw('9007199254740993', '2^53 + 1'),
  raw('123456789012345678901234567890', '30-digit integer'),
  raw('1000000000000000.01', 'just past the largest amount'),
  raw('true', 'true'),
  raw('false', 'false'),
  raw('null', 'null'),
  raw('[]', 'empty array'),
  raw('{}', 'empty object'),
  raw('[null]', 'array of null'),
  raw('["a","b","c"]', 'array of strings'),
];

/** Keys added to an object: prototype pollution, operators, control characters. */
export const hostileKeys = [
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  'a\u0000b',
  '\ud800',
  'id',
  'organization_id',
  'role',
  'is_admin',
];

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));

/** The fixed list, plus values fast-check makes: any code point, huge numbers, any JSON. */
export const hostileValue: fc.Arbitrary<RawJson> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileValues) },
  {
    weight: 1,
    arbitrary: fc
      .string({
        unit: fc.oneof(
          fc.constant('\u0000'),
          loneSurrogate,
          fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        ),
      })
      .map((value) => raw(JSON.stringify(value), 'generated text')),
  },
  {
    weight: 1,
    arbitrary: fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((value) => raw(String(value), 'generated number')),
  },
  {
    weight: 1,
    arbitrary: fc
      .bigInt({ min: -(10n ** 40n), max: 10n ** 40n })
      .map((value) => raw(String(value), 'generated big integer')),
  },
  {
    weight: 1,
    arbitrary: fc
      .jsonValue({ maxDepth: 3 })
      .map((value) => raw(JSON.stringify(value), 'generated JSON')),
  },
);

type Path = (string | number)[];

/** Every place in a generated body (and every documented property it left out). */
function pathsOf(value: unknown, schema: JsonSchema | undefined, prefix: Path = []): Path[] {
  const paths: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      paths.push([...prefix, index], ...pathsOf(item, undefined, [...prefix, index]));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const child = schema?.properties?.[key];
      paths.push([...prefix, key], ...pathsOf(item, child, [...prefix, key]));
    }
    for (const key of Object.keys(schema?.properties ?? {})) {
      if (!Object.hasOwn(value, key)) paths.push([...prefix, key]);
    }
  }
  return paths;
}

/** A copy of the body with the value at `path` replaced (or removed when `value` is undefined). */
function withValueAt(body: unknown, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(body)) {
    const copy = [...body];
    copy[Number(head)] = withValueAt(copy[Number(head)], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  if (typeof body === 'object' && body !== null) {
    for (const [key, item] of Object.entries(body)) defineKey(copy, key, item);
  }
  const key = String(head);
  if (value === undefined && rest.length === 0) {
    delete copy[key];
    return copy;
  }
  defineKey(copy, key, withValueAt(copy[key], rest, value));
  return copy;
}

/** Sets an own property, `__proto__` included (plain assignment would change the prototype). */
function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function pathLabel(path: Path): string {
  return path.length === 0 ? 'the body' : path.map(String).join('.');
}

/** One body to send: its JSON text and how it was made, for the counterexample report. */
export type Mutated = { description: string; text: string };

/** A generated body, then one hostile change: a field replaced, a key added or removed, or all of it. */
export function mutatedBody(
  valid: fc.Arbitrary<unknown>,
  schema: JsonSchema | undefined,
): fc.Arbitrary<Mutated> {
  const asGenerated = valid.map((body) => ({
    description: 'as generated',
    text: toJsonText(body),
  }));
  const replaced = fc.tuple(valid, hostileValue, fc.nat()).map(([body, hostile, pick]) => {
    const paths = pathsOf(body, schema);
    const path = paths.length > 0 ? (paths[pick % paths.length] ?? []) : [];
    return {
      description: `${pathLabel(path)} := ${hostile.label}`,
      text: toJsonText(withValueAt(body, path, hostile)),
    };
  });
  const added = fc
    .tuple(valid, fc.constantFrom(...hostileKeys), hostileValue)
    .map(([body, key, hostile]) => {
      const target = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
      return {
        description: `extra key ${JSON.stringify(key)} := ${hostile.label}`,
        text: toJsonText(withValueAt(target, [key], hostile)),
      };
    });
  const removed = fc.tuple(valid, fc.nat()).map(([body, pick]) => {
    const paths = pathsOf(body, schema);
    const path = paths[pick % Math.max(paths.length, 1)] ?? [];
    return {
      description: `${pathLabel(path)} removed`,
      text: toJsonText(withValueAt(body, path, undefined)),
    };
  });
  const whole = hostileValue.map((hostile) => ({
    description: `the body := ${hostile.label}`,
    text: toJsonText(hostile),
  }));
  return fc.oneof(
    { weight: 3, arbitrary: asGenerated },
    { weight: 6, arbitrary: replaced },
    { weight: 2, arbitrary: added },
    { weight: 1, arbitrary: removed },
    { weight: 1, arbitrary: whole },
  );
}

/** A request's body as sent, whatever its content type. */
export type RawRequest = {
  description: string;
  contentType: string | undefined;
  payload: string;
  /** The parser refuses it whatever the route: it must never reach a handler. */
  isUnparsable: boolean;
};

const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';

function multipart(parts: { name: string; value: string; file?: string }[]): string {
  const lines = parts.flatMap((part) => [
    `--${boundary}`,
    part.file === undefined
      ? `Content-Disposition: form-data; name="${part.name}"`
      : `Content-Disposition: form-data; name="${part.name}"; filename="${part.file}"`,
    ...(part.file === undefined ? [] : ['Content-Type: application/pdf']),
    '',
    part.value,
  ]);
  return [...lines, `--${boundary}--`, ''].join('\r\n');
}

/** Bodies every POST/PUT route gets as they are: broken JSON, other content types, multipart. */
export const fixedRequests: readonly RawRequest[] = [
  {
    description: 'malformed JSON',
    contentType: 'application/json',
    payload: '{"a":',
    isUnparsable: true,
  },
  {
    description: 'single quotes',
    contentType: 'application/json',
    payload: "{'a': 1}",
    isUnparsable: true,
  },
  {
    description: 'trailing garbage',
    contentType: 'application/json',
    payload: '{}}',
    isUnparsable: true,
  },
  {
    description: 'NaN literal',
    contentType: 'application/json',
    payload: '{"a": NaN}',
    isUnparsable: true,
  },
  {
    description: 'empty JSON body',
    contentType: 'application/json',
    payload: '',
    isUnparsable: true,
  },
  {
    description: 'a body over 1 MiB',
    contentType: 'application/json',
    payload: `{"a":"${'a'.repeat(1024 * kib + 10)}"}`,
    isUnparsable: true,
  },
  {
    description: 'form-urlencoded',
    contentType: 'application/x-www-form-urlencoded',
    payload: 'email=a%40b.c&password=x',
    isUnparsable: true,
  },
  {
    description: 'JSON declared as UTF-16',
    contentType: 'application/json; charset=utf-16',
    payload: '{}',
    isUnparsable: false,
  },
  {
    description: 'malformed content type',
    contentType: 'application/json;;;=',
    payload: '{}',
    isUnparsable: false,
  },
  {
    description: 'content type json/application',
    contentType: 'json/application',
    payload: '{}',
    isUnparsable: true,
  },
  { description: 'no content type', contentType: undefined, payload: '{}', isUnparsable: false },
  { description: 'text/plain', contentType: 'text/plain', payload: '{}', isUnparsable: false },
  {
    description: 'raw __proto__',
    contentType: 'application/json',
    payload: '{"__proto__": {"isAdmin": true, "role": "director"}}',
    isUnparsable: false,
  },
  {
    description: 'raw constructor.prototype',
    contentType: 'application/json',
    payload: '{"constructor": {"prototype": {"isAdmin": true}}}',
    isUnparsable: false,
  },
  {
    description: `${deep} nested arrays`,
    contentType: 'application/json',
    payload: `${'['.repeat(deep)}${']'.repeat(deep)}`,
    isUnparsable: false,
  },
  {
    description: `${deep} nested objects`,
    contentType: 'application/json',
    payload: `${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}`,
    isUnparsable: false,
  },
  {
    description: 'multipart with a forged policy, NUL bytes and a __proto__ field',
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: multipart([
      { name: '__proto__', value: '{"isAdmin":true}' },
      { name: 'policy', value: "'; DROP TABLE files; --" },
      { name: 'signature', value: 'a\u0000b' },
      { name: 'key', value: '../../etc/passwd' },
      { name: 'file', value: '%PDF-1.4 hostile', file: '../../\u0000evil.pdf' },
    ]),
    isUnparsable: false,
  },
  {
    description: 'multipart with a broken boundary',
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="policy"\r\n\r\nabc`,
    isUnparsable: false,
  },
  {
    description: 'multipart without a boundary',
    contentType: 'multipart/form-data',
    payload: 'abc',
    isUnparsable: false,
  },
];
