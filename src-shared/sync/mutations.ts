import { z } from 'zod';
import { contractStatusSchema, idSchema } from '../domain/contract';
import { isoDateSchema } from '../domain/dates';
import { moneySchema } from '../domain/money';

// Every write the UI makes is a named, versioned mutation (architecture, sync rule 1). The client
// applies it optimistically and queues it; the server applies it exactly once. Each mutation
// names the rows it touches, so the server can check their base versions.

/** A row a mutation touches, as "entity:id" (e.g. "contract:0192…"). */
export type RowKey = `${string}:${string}`;
export const rowKey = (entity: string, id: string): RowKey => `${entity}:${id}`;

const contractPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    contractNumber: z.string().trim().max(64).nullable(),
    signDate: isoDateSchema.nullable(),
    amount: moneySchema.nullable(),
    status: contractStatusSchema,
    contractTypeId: idSchema.nullable(),
    /** Form values keyed by field id; the ones given replace the kept ones. */
    formValues: z.record(z.string().max(64), z.unknown()),
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'the patch changes nothing');

export interface MutationDefinition<A extends z.ZodType = z.ZodType> {
  args: A;
  /** The rows whose base versions the server compares before applying. */
  touches(args: z.output<A>): RowKey[];
  /**
   * Rows the mutation brings into being (a draft with a client-made id): they have no base
   * version to compare, the client shows them at once, and the result reports their versions.
   */
  creates?(args: z.output<A>): RowKey[];
}

const mutation = <A extends z.ZodType>(definition: MutationDefinition<A>) => definition;

export const mutations = {
  /** Edits fields of a contract (the first mutation; the form issue adds drafting and alteration). */
  'contract.update': mutation({
    args: z.object({ id: idSchema, patch: contractPatchSchema }).strict(),
    touches: (args) => [rowKey('contract', args.id)],
  }),
  /**
   * Drafts a contract with a client-made id. A null number asks the server to allocate one from
   * the numbering rules; `provisionalNumber` is what the client showed meanwhile, and the result
   * says whether the server confirmed or replaced it.
   */
  'contract.create': mutation({
    args: z
      .object({
        id: z.string().uuid(),
        name: z.string().max(200),
        templateId: idSchema.nullable(),
        contractTypeId: idSchema.nullable(),
        contractNumber: z.string().trim().min(1).max(100).nullable(),
        provisionalNumber: z.string().max(100).nullable(),
        formValues: z.record(z.string().max(64), z.unknown()),
      })
      .strict(),
    touches: () => [],
    creates: (args) => [rowKey('contract', args.id)],
  }),
  /** Alters an approved contract (spec 4): only fields with alterEditStatus 2 change. */
  'contract.alter': mutation({
    args: z
      .object({
        id: idSchema,
        formValues: z.record(z.string().max(64), z.unknown()).refine((v) => Object.keys(v).length > 0, 'change at least one value'),
        reason: z.string().trim().min(1, 'please enter the reason').max(2000),
      })
      .strict(),
    touches: (args) => [rowKey('contract', args.id)],
  }),
} as const satisfies Record<string, MutationDefinition>;

export type MutationName = keyof typeof mutations;
export type MutationArgs<N extends MutationName> = z.output<(typeof mutations)[N]['args']>;

/** The rows a mutation touches (base versions checked) and those it creates. */
export function rowsOf(name: MutationName, args: unknown): { touches: RowKey[]; creates: RowKey[] } {
  const definition = mutations[name] as MutationDefinition<z.ZodType>;
  return { touches: definition.touches(args), creates: definition.creates?.(args) ?? [] };
}

export function isMutationName(name: unknown): name is MutationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(mutations, name);
}

/** What a contract mutation's args say about the edit: an update's patch, a draft's or an alteration's form values (and its reason). */
export const contractEditArgsSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  patch: z.record(z.string(), z.unknown()).optional(),
  formValues: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
});
