// What the checks of a resource with every CRUD operation share: the resources that have them all,
// the ids on a list page, and the rules a stale If-Match that is not refused breaks.
import { type StatedRule, statedAt, statedOfHeader, statedOfParam } from '../../rules/stated.ts';
import type { ContractModel, OperationModel, ResourceModel } from '../../spec.ts';

export type Crud = Required<Pick<ResourceModel, 'create' | 'read' | 'list' | 'update' | 'delete'>> & ResourceModel;

export function isCrud(resource: ResourceModel): resource is Crud {
  return Boolean(resource.create && resource.read && resource.list && resource.update && resource.delete);
}

/** The resources with every CRUD operation. */
export const cruds = (model: ContractModel) => model.resources.filter(isCrud);

/** What a change with a stale If-Match that is not refused breaks: the parameter, the ETag header and the concurrency rule. */
export function staleMatchRules(op: OperationModel, resource: Crud): StatedRule[] {
  return [
    ...statedOfParam(op, 'if-match', /412/),
    ...statedOfHeader(resource.read, '200', 'etag', /412/),
    ...statedAt('/info/description', /If-Match.*`412`/),
  ];
}

/** The ids on one page of a list answer. */
export function idsOf(json: unknown): string[] {
  return ((json as { data?: { id?: string }[] })?.data ?? []).map((item) => String(item.id));
}
