import type { Href } from "#app/lib/href.ts";
import { Link } from "react-router";
import { HeaderMenu } from "./header-menu.tsx";
import { CloseIcon, PlusIcon, ReorderIcon, SearchIcon } from "#app/components/icons.tsx";
import { LIST_PARAM as PARAM } from "#app/lib/list-url-state.ts";

/**
 * The UIP list's header actions outside reorder mode (docs/product.md#screens-uip-list): the search
 * toggle, and for admins a menu with Add Stock and Reorder. Each is a link that works without JavaScript.
 */
export function UipHeaderActions({
  searchOpen,
  canCreate,
  canUpdate,
  listUrl,
  onOpenSearch,
  onCloseSearch,
  onReorder,
}: {
  searchOpen: boolean;
  canCreate: boolean;
  canUpdate: boolean;
  listUrl: (change: (params: URLSearchParams) => void) => string;
  /** Opening by the toggle puts the cursor in the search. */
  onOpenSearch: () => void;
  onCloseSearch: () => void;
  onReorder: () => void;
}) {
  return (
    <>
      <Link
        to={listUrl((p) => {
          if (searchOpen) {
            p.delete(PARAM.search);
            p.delete(PARAM.query);
          } else {
            p.set(PARAM.search, "1");
          }
        })}
        replace
        preventScrollReset
        className="icon-button"
        aria-label={searchOpen ? "Close search" : "Search"}
        title={searchOpen ? "Close search" : "Search"}
        onClick={(event) => {
          if (!searchOpen) {
            onOpenSearch();
            return;
          }
          event.preventDefault();
          onCloseSearch();
        }}
      >
        {searchOpen ? <CloseIcon /> : <SearchIcon />}
      </Link>
      {canCreate || canUpdate ? (
        <HeaderMenu label="Menu">
          {canCreate ? (
            <Link to={"/add-uip-stock" satisfies Href} className="uip-menu__item">
              <PlusIcon /> Add Stock
            </Link>
          ) : null}
          {canUpdate ? (
            <Link
              to={listUrl((p) => {
                p.set(PARAM.reorder, "1");
                for (const name of [PARAM.open, PARAM.query, PARAM.search, PARAM.category]) p.delete(name);
              })}
              preventScrollReset
              className="uip-menu__item"
              onClick={onReorder}
            >
              <ReorderIcon /> Reorder
            </Link>
          ) : null}
        </HeaderMenu>
      ) : null}
    </>
  );
}
