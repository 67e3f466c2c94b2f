/**
 * The toast library and its container, loaded with the page's first toast (app/lib/toast.ts).
 * Importing react-toastify adds its stylesheet, and a stylesheet added after the first paint
 * restyles the whole document (about 1,000 elements of a 50-row list, 90–170 ms at 4× CPU
 * slowdown; ADR 0056); so the container is not part of the page's React tree but a root of its
 * own, mounted by this module when it first loads: top-right, closes after 3 s
 * (docs/product.md#screens-app-wide, #constants-timings).
 */
import { createRoot } from "react-dom/client";
import { ToastContainer } from "react-toastify";

const host = document.createElement("div");
document.body.append(host);
createRoot(host).render(<ToastContainer position="top-right" autoClose={3000} newestOnTop theme="dark" />);

export { toast } from "react-toastify";
