// Each query parameter's boundaries, inside and outside, derived from its schema (an integer at its
// minimum and maximum and one beyond, a filter's enum member in another case): a cell per list
// operation and value, sent on its own by the boundary check.
import type { Exchange } from '../http.ts';
import { type ContractModel, type OperationModel, schemaAt } from '../spec.ts';
import { BOUNDARIES } from './boundaries.ts';
import { scalarValues } from './field-values.ts';
import { flatten } from './schema-fields.ts';
import type { Cell } from './space.ts';

/** A query parameter's value at a boundary: sent alone on its operation, accepted inside, refused outside with a pointer at it. */
export interface ParameterCell extends Cell {
  op: OperationModel;
  name: string;
  inside: boolean;
  /** As sent in the query string. */
  value: string;
}

export function parameterCells(model: ContractModel): ParameterCell[] {
  return model.operations.flatMap((op) =>
    op.params
      .filter((param) => param.in === 'query')
      .flatMap((param) =>
        scalarValues(flatten(model.doc, schemaAt(model.doc, param.pointer)), false)
          .filter((value) => value.value !== undefined && !value.valueFor)
          .map(
            (value): ParameterCell => ({
              family: BOUNDARIES,
              axis: `${op.label} ?${param.name} ${value.keyword}`,
              cell: `${value.cell} (${value.inside ? 'inside' : 'outside'})`,
              op,
              name: param.name,
              inside: value.inside,
              value: String(value.value),
            }),
          ),
      ),
  );
}

/** The parameter cells one request exercised: its operation's, with the value in its query (inside only when it was not refused). */
export function parameterCellsOf(cells: readonly ParameterCell[], op: OperationModel, exchange: Exchange): Cell[] {
  const query = new URL(exchange.request.url).searchParams;
  return cells.filter((cell) => cell.op === op && query.get(cell.name) === cell.value && (!cell.inside || exchange.status < 400));
}
