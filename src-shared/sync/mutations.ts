import { z } from 'zod';
import { contractIdSchema, contractStatusSchema, idSchema } from '../domain/contract';
import { formValuesSchema } from '../domain/contract-forms';
import { moneySchema } from '../domain/money';

// Every write the UI makes is a named, versioned mutation (architecture, sync rule 1). The client
// applies it optimistically and queues it; the server applies it exactly once. Each mutation
// names the rows it touches, so the server can check their base versions.

/** A row a mutation touches, as "entity:id" (e.g. "contract:0192…"). */
export type RowKey = `${string}:${string}`;
export const rowKey = (entity: string, id: string): RowKey => `${entity}:${id}`;

/** How the server refuses a mutation touching a row it does not have; the desktop refuses one its replica lacks the same way. */
export const missingRowMessage = (key: RowKey) => `${key} does not exist`;

const contractPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    contractNumber: z.string().trim().max(64).nullable(),
    signDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be yyyy-MM-dd').nullable(),
    amount: moneySchema.nullable(),
    status: contractStatusSchema,
    contractTypeId: idSchema.nullable(),
    /** Form values keyed by field id; the ones given replace the kept ones. */
    formValues: formValuesSchema,
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
    args: z.object({ id: contractIdSchema, patch: contractPatchSchema }).strict(),
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
        id: contractIdSchema,
        name: z.string().max(200),
        templateId: idSchema.nullable(),
        contractTypeId: idSchema.nullable(),
        contractNumber: z.string().trim().min(1).max(100).nullable(),
        provisionalNumber: z.string().max(100).nullable(),
        formValues: formValuesSchema,
      })
      .strict(),
    touches: () => [],
    creates: (args) => [rowKey('contract', args.id)],
  }),
  /** Alters an approved contract (spec 4): only fields with alterEditStatus 2 change. */
  'contract.alter': mutation({
    args: z
      .object({
        id: contractIdSchema,
        formValues: formValuesSchema.refine((v) => Object.keys(v).length > 0, 'change at least one value'),
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
