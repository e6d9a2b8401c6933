import type { z } from 'zod';

// A fast yes to "does this schema take the value as it is?", compiled once from a zod schema, for
// the sync feed's pages: zod parses each of a first sync's 300,000 rows into a copy of it, which
// cost more than writing the rows. A check answers true only when the schema accepts the value
// and its parse would give back an equal value (no unknown key to strip, no default, no
// transform), so the value can stand for the parse's output. It never answers for the schema
// otherwise: false means "ask the schema", which then gives its own answer and message. Schema
// kinds it does not know are asked of zod value by value.

type Check = (value: unknown, memo: Memo) => boolean;
/** Per call: the arrays a check has taken already (a page's rows share their performance's columns and fields). */
type Memo = Map<Check, WeakSet<object>>;

/** The zod internals a check is compiled from. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  values?: readonly unknown[];
  entries?: Record<string, unknown>;
  options?: readonly z.ZodType[];
  discriminator?: string;
  unionFallback?: boolean;
  mode?: string;
  coerce?: boolean;
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: RegExp;
  value?: number;
  inclusive?: boolean;
  type?: string;
  fn?: (value: unknown) => unknown;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** An object as JSON.parse makes it, with no key that would set a prototype instead of a property. */
function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  return Object.getPrototypeOf(value) === Object.prototype && !Object.prototype.hasOwnProperty.call(value, '__proto__');
}

/** Whether two JSON values are the same value (objects key by key, whatever their keys' order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Whatever the kind: zod's own parse, taken only when its output equals the value. */
const askZod =
  (schema: z.ZodType): Check =>
  (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success && sameJson(parsed.data, value);
  };

/** A string's or number's checks as plain tests; null when one is not known here. */
function leafTests(checks: Def['checks'] = []): ((value: never) => boolean)[] | null {
  const tests: ((value: never) => boolean)[] = [];
  for (const { _zod } of checks) {
    const check = _zod.def;
    const { minimum, maximum, pattern, value: bound, fn } = check;
    if (check.check === 'min_length' && minimum !== undefined) tests.push((text: string) => text.length >= minimum);
    else if (check.check === 'max_length' && maximum !== undefined) tests.push((text: string) => text.length <= maximum);
    else if (check.check === 'string_format' && pattern instanceof RegExp && (check.format === 'regex' || check.format === 'uuid')) {
      tests.push((text: string) => {
        pattern.lastIndex = 0;
        return pattern.test(text);
      });
    } else if (check.check === 'number_format' && check.format === 'safeint') tests.push((n: number) => Number.isSafeInteger(n));
    else if (check.check === 'greater_than' && bound !== undefined) tests.push(check.inclusive ? (n: number) => n >= bound : (n: number) => n > bound);
    else if (check.check === 'less_than' && bound !== undefined) tests.push(check.inclusive ? (n: number) => n <= bound : (n: number) => n < bound);
    // A refinement: zod passes a truthy answer; only `true` is taken here.
    else if (check.check === 'custom' && check.type === 'custom' && typeof fn === 'function') tests.push((value: never) => fn(value) === true);
    else return null;
  }
  return tests;
}

function passes(tests: ((value: never) => boolean)[], value: unknown): boolean {
  for (let i = 0; i < tests.length; i += 1) if (!tests[i]!(value as never)) return false;
  return true;
}

/** The check of a schema that takes any value as it is. */
const takesAll: Check = () => true;

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** What kind of value a schema can take, for the kinds a union is told apart by; null for any other schema. */
function kindOf(schema: z.ZodType): Kind | null {
  const { type } = defOf(schema);
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'array') return type;
  return type === 'object' || type === 'record' ? 'object' : null;
}

function valueKind(value: unknown): Kind | null {
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return type;
  return type === 'object' && value !== null ? 'object' : null;
}

function compile(schema: z.ZodType): Check {
  const def = defOf(schema);
  const hasChecks = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case 'string': {
      const tests = def.coerce ? null : leafTests(def.checks);
      return tests ? (value) => typeof value === 'string' && passes(tests, value) : askZod(schema);
    }
    case 'number': {
      const tests = def.coerce ? null : leafTests(def.checks);
      return tests ? (value) => typeof value === 'number' && Number.isFinite(value) && passes(tests, value) : askZod(schema);
    }
    case 'boolean':
      return hasChecks || def.coerce ? askZod(schema) : (value) => typeof value === 'boolean';
    case 'unknown':
    case 'any':
      return hasChecks ? askZod(schema) : takesAll;
    case 'literal': {
      const values = new Set(def.values);
      return hasChecks ? askZod(schema) : (value) => values.has(value);
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (hasChecks || !values.every((value) => typeof value === 'string')) return askZod(schema);
      const known = new Set<unknown>(values);
      return (value) => known.has(value);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return hasChecks ? askZod(schema) : (value, memo) => value === null || inner(value, memo);
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return hasChecks ? askZod(schema) : (value, memo) => value === undefined || inner(value, memo);
    }
    case 'array': {
      if (hasChecks) return askZod(schema);
      const element = compile(def.element!);
      if (element === takesAll) return (value) => Array.isArray(value);
      const check: Check = (value, memo) => {
        if (!Array.isArray(value)) return false;
        const taken = memo.get(check);
        if (taken?.has(value)) return true;
        for (let i = 0; i < value.length; i += 1) if (!element(value[i], memo)) return false;
        (taken ?? memo.set(check, new WeakSet()).get(check)!).add(value);
        return true;
      };
      return check;
    }
    case 'record': {
      const keyDef = defOf(def.keyType!);
      if (hasChecks || def.mode === 'loose' || keyDef.type !== 'string' || (keyDef.checks?.length ?? 0) > 0) return askZod(schema);
      const entry = compile(def.valueType!);
      if (entry === takesAll) return plainObject;
      return (value, memo) => {
        if (!plainObject(value)) return false;
        for (const key in value) if (!entry(value[key], memo)) return false;
        return true;
      };
    }
    case 'object': {
      if (hasChecks || def.catchall !== undefined) return askZod(schema);
      // A key may be missing only where zod then leaves it out as well (an optional field).
      const fields = Object.entries(def.shape!).map(([key, field]) => {
        const { optin, optout } = (field as unknown as { _zod: { optin?: string; optout?: string } })._zod;
        return { key, check: compile(field), mayBeMissing: optin === 'optional' && optout === 'optional' };
      });
      return (value, memo) => {
        if (!plainObject(value)) return false;
        let present = 0;
        for (let i = 0; i < fields.length; i += 1) {
          const { key, check, mayBeMissing } = fields[i]!;
          const field = value[key];
          if (field === undefined && !Object.prototype.hasOwnProperty.call(value, key)) {
            if (!mayBeMissing) return false;
          } else if (check(field, memo)) present += 1;
          else return false;
        }
        // A key the schema does not know would be stripped: the parse's output would differ.
        return Object.keys(value).length === present;
      };
    }
    case 'union': {
      const discriminator = def.discriminator;
      if (hasChecks || def.unionFallback) return askZod(schema);
      if (discriminator === undefined) {
        // Options of different kinds (an array or an object): only the one of the value's kind can take it.
        const kinds = (def.options ?? []).map(kindOf);
        if (kinds.some((kind) => kind === null) || new Set(kinds).size !== kinds.length) return askZod(schema);
        const options = new Map((def.options ?? []).map((option, i) => [kinds[i], compile(option)]));
        return (value, memo) => {
          const option = options.get(valueKind(value));
          return option !== undefined && option(value, memo);
        };
      }
      // A discriminated union takes the one option its discriminator names, as zod does.
      const options = new Map<unknown, Check>();
      for (const option of def.options ?? []) {
        const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[discriminator];
        if (!values) return askZod(schema);
        const check = compile(option);
        for (const value of values) {
          if (value === undefined || options.has(value)) return askZod(schema);
          options.set(value, check);
        }
      }
      return (value, memo) => {
        if (!plainObject(value)) return false;
        const option = options.get(value[discriminator]);
        return option !== undefined && option(value, memo);
      };
    }
    default:
      return askZod(schema);
  }
}

/**
 * The schema's parse, with a fast path: a value the compiled check takes is the output as it is;
 * any other goes through zod, which gives its own answer (and message).
 */
export function exactParser<S extends z.ZodType>(schema: S): (value: unknown) => z.ZodSafeParseResult<z.output<S>> {
  const check = compile(schema);
  return (value) => (check(value, new Map()) ? { success: true, data: value as z.output<S> } : schema.safeParse(value));
}
