import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { apiPrefix, endpoint, none, type Endpoint } from './endpoint';

// The organisation's directory for the people and department fields (spec 3, "Field types"):
// every user with their department, and the department tree. Both paths are defined here.

export const directoryUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** Null for a user in no department. */
  department: z.object({ id: idSchema, name: z.string() }).nullable(),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

export const directoryDepartmentSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** The parent department's id; null at the top of the tree. */
  parent: idSchema.nullable(),
});
export type DirectoryDepartment = z.infer<typeof directoryDepartmentSchema>;

export const directoryEndpoints = {
  userDirectory: endpoint({
    method: 'GET', path: `${apiPrefix}/users`, auth: true, query: none, body: none,
    response: z.object({ list: z.array(directoryUserSchema) }),
  }),
  departmentDirectory: endpoint({
    method: 'GET', path: `${apiPrefix}/departments`, auth: true, query: none, body: none,
    response: z.object({ list: z.array(directoryDepartmentSchema) }),
  }),
} as const satisfies Record<string, Endpoint>;
