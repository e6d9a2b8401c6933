// Where the templates feature's screens are: its own routes beside the spec's template approval page.

export const templatesPath = '/templates';

/** The template editor: a new template without an id. */
export const editorPath = (id: string | null) => (id === null ? `${templatesPath}/edit` : `${templatesPath}/edit?id=${encodeURIComponent(id)}`);

/** The spec's template approval page (spec 2, routes) for one template. */
export const templateApprovalPath = (id: string) => `/templateApproval/detail?id=${encodeURIComponent(id)}`;
