import type { User } from '../domain/user';

// Projects (spec 7 "Projects"): only the project's creator or an administrator may rename or
// delete it (the server's rule, src-server/projects/repository.ts); anyone who sees the project
// may add or remove the contracts they see.

export function canChangeProject(user: Pick<User, 'id' | 'role'>, project: { createdBy: string }): boolean {
  return user.role === 'admin' || project.createdBy === user.id;
}
