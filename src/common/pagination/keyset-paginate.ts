import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorCodec } from './cursor-codec';
import { Page } from './pagination.dto';

export interface KeysetOptions<E, R> {
  /** Query alias whose `sortProperty` and `id` are the keyset (descending). */
  alias: string;
  /** A timestamp property with millisecond precision (`timestamptz(3)`), default `createdAt`. */
  sortProperty?: string;
  limit?: number;
  cursor?: string;
  /** Every filter of the request; a cursor is valid only for the same set. */
  filters: Record<string, string | number | boolean | null | undefined | readonly string[]>;
  codec: CursorCodec;
  map: (entity: E) => R;
}

export const DEFAULT_PAGE_SIZE = 25;

/**
 * Keyset pagination, newest first: `(sort, id) < (cursor.sort, cursor.id)`, one extra row fetched to learn
 * `hasMore`. No OFFSET, so pages stay stable while rows are inserted concurrently.
 */
export async function keysetPaginate<E extends ObjectLiteral, R>(
  qb: SelectQueryBuilder<E>,
  options: KeysetOptions<E, R>,
): Promise<Page<R>> {
  const { alias, codec, filters } = options;
  const sortProperty = options.sortProperty ?? 'createdAt';
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  if (options.cursor) {
    const position = codec.decode(options.cursor, filters);
    qb.andWhere(`(${alias}.${sortProperty}, ${alias}.id) < (:keysetSort, :keysetId)`, {
      keysetSort: position.sort,
      keysetId: position.id,
    });
  }
  const rows = await qb
    .orderBy(`${alias}.${sortProperty}`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .take(undefined)
    .limit(limit + 1)
    .getMany();
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const sortValue = last ? (last[sortProperty] as Date | string) : undefined;
  return {
    data: page.map(options.map),
    pagination: {
      cursor:
        hasMore && last
          ? codec.encode(
              { sort: sortValue instanceof Date ? sortValue.toISOString() : String(sortValue), id: String(last.id) },
              filters,
            )
          : null,
      hasMore,
      pageSize: limit,
    },
  };
}
