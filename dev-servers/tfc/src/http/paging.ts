/**
 * @module page[number] / page[size] as HCP Terraform pages lists: 20 items by default, 100 at
 * most, and a page past the end is an empty page that still reports the totals.
 */
import { invalidAttribute } from "./api-error.ts";

export interface PageMeta {
  readonly "current-page": number;
  readonly "page-size": number;
  readonly "prev-page": number | null;
  readonly "next-page": number | null;
  readonly "total-pages": number;
  readonly "total-count": number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly meta: PageMeta;
  readonly links: Record<string, string | null>;
}

const DEFAULT_SIZE = 20;
const MAX_SIZE = 100;

function positiveInteger(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw invalidAttribute(name, `${name} must be a positive integer`, "query");
  return value;
}

export function paginate<T>(all: readonly T[], url: URL): Page<T> {
  const number = positiveInteger(url, "page[number]", 1);
  const size = Math.min(positiveInteger(url, "page[size]", DEFAULT_SIZE), MAX_SIZE);
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const link = (page: number): string => {
    const target = new URL(url);
    target.searchParams.set("page[number]", String(page));
    target.searchParams.set("page[size]", String(size));
    return target.toString();
  };
  const prev = number > 1 ? number - 1 : null;
  const next = number < totalPages ? number + 1 : null;
  return {
    items: all.slice((number - 1) * size, number * size),
    meta: {
      "current-page": number,
      "page-size": size,
      "prev-page": prev,
      "next-page": next,
      "total-pages": totalPages,
      "total-count": all.length,
    },
    links: {
      self: link(number),
      first: link(1),
      prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next),
      last: link(totalPages),
    },
  };
}
